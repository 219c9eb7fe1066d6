package dev.cortex.server.loop;

import dev.cortex.models.ChatMessage;
import dev.cortex.models.ChatPart;
import dev.cortex.models.ToolDefinition;
import java.util.ArrayList;
import java.util.List;

/**
 * Keeps a conversation inside its model's context window. The rule, in order, each step only when
 * the one before was not enough:
 *
 * <ol>
 *   <li>The conversation's size is estimated at one token per {@value #CHARS_PER_TOKEN} characters
 *       of its text, tool inputs and outputs, system prompt and tool definitions. It is too large
 *       when that passes {@value #HIGH_WATER_PERCENT}% of the context window less the answer's
 *       output tokens.
 *   <li>Tool outputs older than the last {@value #RECENT_MESSAGES} messages that are longer than
 *       {@value #KEPT_OUTPUT} characters are shortened to their start and end, with a marker saying
 *       how much was cut.
 *   <li>The older part of the conversation (everything before the last person's message that leaves
 *       at least {@value #RECENT_MESSAGES} messages after it) is summarised by the model and
 *       replaced by the summary.
 * </ol>
 *
 * The transcript gets a note for each step taken; the transcript itself is never shortened.
 */
final class ContextWindow {
  static final int CHARS_PER_TOKEN = 4;
  static final int HIGH_WATER_PERCENT = 80;
  static final int RECENT_MESSAGES = 4;
  static final int KEPT_OUTPUT = 1_200;
  private static final int KEPT_HEAD = 800;
  private static final int KEPT_TAIL = 300;

  private ContextWindow() {}

  /** The most tokens a request may carry for a model of {@code contextTokens}. */
  static long limit(long contextTokens, int maxTokens) {
    return Math.max(1, (contextTokens - maxTokens) * HIGH_WATER_PERCENT / 100);
  }

  /** The estimated tokens of a request. */
  static long estimate(String system, List<ChatMessage> messages, List<ToolDefinition> tools) {
    long chars = system == null ? 0 : system.length();
    for (ToolDefinition tool : tools) {
      chars += tool.name().length() + tool.description().length();
      chars += tool.inputSchema().toString().length();
    }
    for (ChatMessage message : messages) {
      for (ChatPart part : message.parts()) {
        chars += size(part);
      }
    }
    return chars / CHARS_PER_TOKEN + messages.size();
  }

  private static long size(ChatPart part) {
    if (part instanceof ChatPart.Text t) {
      return t.text().length();
    }
    if (part instanceof ChatPart.Thinking t) {
      return t.text().length();
    }
    if (part instanceof ChatPart.ToolCall c) {
      return c.name().length() + c.input().toString().length();
    }
    return ((ChatPart.ToolOutput) part).content().length();
  }

  /** The conversation with older long tool outputs shortened, and how many characters went. */
  record Shortened(List<ChatMessage> messages, long cut) {}

  static Shortened shortenOutputs(List<ChatMessage> messages) {
    List<ChatMessage> out = new ArrayList<>(messages.size());
    long cut = 0;
    int recent = Math.max(0, messages.size() - RECENT_MESSAGES);
    for (int i = 0; i < messages.size(); i++) {
      ChatMessage message = messages.get(i);
      if (i >= recent || message.role() != ChatMessage.Role.USER) {
        out.add(message);
        continue;
      }
      List<ChatPart> parts = new ArrayList<>();
      for (ChatPart part : message.parts()) {
        if (part instanceof ChatPart.ToolOutput o && o.content().length() > KEPT_OUTPUT) {
          String content = o.content();
          int gone = content.length() - KEPT_HEAD - KEPT_TAIL;
          cut += gone;
          parts.add(
              new ChatPart.ToolOutput(
                  o.callId(),
                  content.substring(0, KEPT_HEAD)
                      + "\n[… "
                      + gone
                      + " characters cut to fit the context …]\n"
                      + content.substring(content.length() - KEPT_TAIL),
                  o.error()));
        } else {
          parts.add(part);
        }
      }
      out.add(new ChatMessage(message.role(), parts));
    }
    return new Shortened(out, cut);
  }

  /**
   * Where to cut a conversation for a summary: the index of the last user message that holds text
   * from a person (not only tool outputs) with at least {@value #RECENT_MESSAGES} messages from it
   * to the end; 0 when there is none (nothing to summarise).
   */
  static int summaryCut(List<ChatMessage> messages) {
    for (int i = messages.size() - RECENT_MESSAGES; i > 0; i--) {
      ChatMessage message = messages.get(i);
      if (message.role() == ChatMessage.Role.USER
          && message.parts().stream().anyMatch(ChatPart.Text.class::isInstance)
          && message.parts().stream().noneMatch(ChatPart.ToolOutput.class::isInstance)) {
        return i;
      }
    }
    return 0;
  }

  /** The instruction that asks the model for a summary of what came before. */
  static final String SUMMARY_REQUEST =
      "Summarise the conversation so far for yourself, to continue the work from it: the"
          + " person's requests, what was done, what was found (files, commands, results, ids of"
          + " waitpoints or jobs), decisions, and what remains open. Be complete about facts you"
          + " will need; leave out pleasantries. Answer with the summary only.";

  /** The conversation with everything before {@code cut} replaced by {@code summary}. */
  static List<ChatMessage> summarised(List<ChatMessage> messages, int cut, String summary) {
    List<ChatMessage> out = new ArrayList<>();
    ChatMessage first = messages.get(cut);
    List<ChatPart> parts = new ArrayList<>();
    parts.add(new ChatPart.Text("[A summary of the earlier conversation]\n" + summary));
    parts.addAll(first.parts());
    out.add(ChatMessage.user(parts));
    out.addAll(messages.subList(cut + 1, messages.size()));
    return out;
  }
}
