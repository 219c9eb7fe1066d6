package dev.cortex.server.loop;

import dev.cortex.server.sessions.backend.TurnRequest;
import java.time.LocalDate;

/** The system prompt of an {@code api} session's model. */
final class SystemPrompt {
  private SystemPrompt() {}

  static String text(TurnRequest request, LocalDate today) {
    StringBuilder text =
        new StringBuilder(
            "You are an agent working through Cortex on the person's machines. Use the tools you"
                + " are given to act and to check your work; say plainly what you did and what you"
                + " found. When a tool fails, read its message: it says what to change. When you"
                + " wait for something outside (a waitpoint, a job), end your turn: the wake"
                + " arrives as a new message.");
    text.append("\n\nToday is ").append(today).append('.');
    text.append(" The working directory is ").append(request.workingDirectory()).append('.');
    String project = request.environment().get("CORTEX_PROJECT");
    if (project != null && !project.isBlank()) {
      text.append(" The project is ").append(project).append('.');
    }
    return text.toString();
  }
}
