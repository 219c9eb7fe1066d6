package dev.cortex.workflows;

import dev.cortex.base.Json;
import dev.cortex.mcp.tool.ToolException;
import dev.cortex.workflows.consent.Confirmation;
import dev.cortex.workflows.consent.Confirmer;
import dev.cortex.workflows.consent.Decision;
import dev.cortex.workflows.manifest.Manifest;
import dev.cortex.workflows.remote.TrustStore;
import dev.cortex.workflows.run.WorkflowRef;
import dev.cortex.workflows.tools.Surface;
import dev.cortex.workflows.tools.WorkflowErrors;
import java.util.List;
import java.util.Map;

/**
 * The human's consent before a run: trust in a remote workflow at its exact commit (asked once per
 * commit and set of capabilities, recorded in {@code trust.json}), then a confirmation of this run
 * naming the workflow, its source and its parameters. Anything but an approval runs nothing.
 */
final class RunConsent {
  private static final int MAX_VALUE_CHARS = 300;

  private final TrustStore trust;

  RunConsent(TrustStore trust) {
    this.trust = trust;
  }

  /** Whether running {@code loaded} would first ask the human to trust it. */
  boolean trustRequired(Sources.Loaded loaded) {
    WorkflowRef ref = loaded.ref();
    return WorkflowRef.REMOTE.equals(ref.kind())
        && !trust.covers(ref, loaded.manifest().capabilities());
  }

  /**
   * Asks for trust when needed, then for this run.
   *
   * @throws ToolException CONSENT_DECLINED, CONSENT_TIMEOUT or CONSENT_UNAVAILABLE
   */
  void confirm(Workflows.Prepared prepared, Confirmer confirmer, Surface surface) {
    Sources.Loaded loaded = prepared.loaded();
    Manifest manifest = loaded.manifest();
    if (trustRequired(loaded)) {
      Decision trusted = confirmer.confirm(trustQuestion(loaded, surface));
      require(trusted, "trust in " + loaded.ref().ref() + " at " + shortCommit(loaded), prepared);
      trust.record(loaded.ref(), manifest.name(), manifest.capabilities());
    }
    Decision run = confirmer.confirm(runQuestion(prepared, surface));
    require(run, "the run of workflow '" + manifest.name() + "'", prepared);
  }

  private static void require(Decision decision, String what, Workflows.Prepared prepared) {
    switch (decision.outcome()) {
      case APPROVED -> {}
      case DECLINED ->
          throw new ToolException(
              WorkflowErrors.CONSENT_DECLINED,
              "The human declined "
                  + what
                  + (decision.channel() == null
                      ? ""
                      : " (asked through " + decision.channel() + ")")
                  + ". Nothing ran.");
      case TIMED_OUT ->
          throw new ToolException(
              WorkflowErrors.CONSENT_TIMEOUT,
              "Nobody answered the confirmation of "
                  + what
                  + (decision.detail() == null ? " in time" : " within " + decision.detail())
                  + ". Nothing ran. The wait is CORTEX_CONFIRM_TIMEOUT_SECONDS of the server (at"
                  + " most 300), kept short by default so that the question ends before a client"
                  + " gives up on the call.");
      case NO_CHANNEL ->
          throw new ToolException(
              WorkflowErrors.CONSENT_UNAVAILABLE,
              "Cortex could not ask a human to confirm "
                  + what
                  + ": "
                  + decision.detail()
                  + ". Nothing ran. "
                  + terminalHint(prepared));
      default ->
          throw new ToolException(
              WorkflowErrors.CONSENT_UNAVAILABLE,
              "Cortex could not confirm " + what + ". Nothing ran.");
    }
  }

  /** Where a person can run it instead. */
  private static String terminalHint(Workflows.Prepared prepared) {
    StringBuilder command =
        new StringBuilder("cortex run ").append(shellWord(prepared.loaded().ref().ref()));
    for (Map.Entry<String, Object> parameter : prepared.parameters().entrySet()) {
      Object value = parameter.getValue();
      String text = value instanceof String s ? s : Json.write(value);
      command.append(" --param ").append(shellWord(parameter.getKey() + "=" + text));
    }
    return "A person can run it from a terminal, where it asks on the spot: " + command;
  }

  /**
   * The question before a run: an agent's request when the MCP server asks, the person's own
   * command on the command line.
   */
  static Confirmation runQuestion(Workflows.Prepared prepared, Surface surface) {
    Sources.Loaded loaded = prepared.loaded();
    Manifest manifest = loaded.manifest();
    StringBuilder text =
        new StringBuilder(
                surface == Surface.MCP
                    ? "An agent asks to run workflow '"
                    : "You are about to run workflow '")
            .append(oneLine(manifest.name()))
            .append("' ")
            .append(oneLine(manifest.version()))
            .append(".\n\nSource: ")
            .append(source(loaded.ref()))
            .append("\nCapabilities: ")
            .append(capabilities(manifest.capabilities()))
            .append("\nParameters:");
    if (prepared.parameters().isEmpty()) {
      text.append(" none");
    }
    for (Map.Entry<String, Object> parameter : prepared.parameters().entrySet()) {
      text.append("\n  ")
          .append(parameter.getKey())
          .append(" = ")
          .append(value(parameter.getValue()));
    }
    text.append("\n\nRun it now?");
    return new Confirmation(
        Confirmation.Kind.RUN, "run " + oneLine(manifest.name()), text.toString(), "Run");
  }

  static Confirmation trustQuestion(Sources.Loaded loaded, Surface surface) {
    Manifest manifest = loaded.manifest();
    WorkflowRef ref = loaded.ref();
    String text =
        (surface == Surface.MCP
                ? "An agent asks to run a workflow from a Git repository this machine has not"
                    + " trusted at this commit."
                : "This workflow comes from a Git repository this machine has not trusted at this"
                    + " commit.")
            + "\n\nRef: "
            + oneLine(ref.ref())
            + "\nRepository: "
            + oneLine(ref.repository())
            + "\nFile: "
            + oneLine(ref.subpath())
            + "\nCommit: "
            + ref.commit()
            + "\nWorkflow: "
            + oneLine(manifest.name())
            + " "
            + oneLine(manifest.version())
            + (manifest.description().isEmpty() ? "" : " - " + oneLine(manifest.description()))
            + "\nCapabilities it declares: "
            + capabilities(manifest.capabilities())
            + "\n\nTrusting records your consent in trust.json for this file at this commit"
            + " only; a new commit or new capabilities will ask again. Each run is still"
            + " confirmed on its own.\n\nTrust it?";
    return new Confirmation(
        Confirmation.Kind.TRUST, "trust " + oneLine(manifest.name()), text, "Trust");
  }

  private static String source(WorkflowRef ref) {
    return switch (ref.kind()) {
      case WorkflowRef.REMOTE -> oneLine(ref.ref()) + " (commit " + ref.commit() + ")";
      case "library" -> oneLine(ref.ref()) + " (local library)";
      default -> oneLine(ref.location());
    };
  }

  private static String capabilities(List<String> capabilities) {
    return capabilities.isEmpty() ? "none" : String.join(", ", capabilities);
  }

  /** A value as JSON on one line, shortened: control characters cannot fake lines. */
  private static String value(Object value) {
    String json = visible(Json.write(value));
    return json.length() > MAX_VALUE_CHARS
        ? json.substring(0, MAX_VALUE_CHARS) + "… (" + json.length() + " characters)"
        : json;
  }

  /**
   * {@code text} with every character that could move or hide what follows written as {@code
   * \\uXXXX}: controls, format characters (bidi overrides, zero-width marks) and Unicode line and
   * paragraph separators, which a dialog or a client's form may render as line breaks.
   */
  static String visible(String text) {
    StringBuilder out = new StringBuilder(text.length());
    text.codePoints()
        .forEach(
            c -> {
              int type = Character.getType(c);
              if (type == Character.CONTROL
                  || type == Character.FORMAT
                  || type == Character.LINE_SEPARATOR
                  || type == Character.PARAGRAPH_SEPARATOR
                  || c == 0x85) {
                out.append(String.format(java.util.Locale.ROOT, "\\u%04x", c));
              } else {
                out.appendCodePoint(c);
              }
            });
    return out.toString();
  }

  private static String oneLine(String text) {
    String line = visible(text.strip().replaceAll("\\s+", " "));
    return line.length() > 200 ? line.substring(0, 200) + "…" : line;
  }

  private static String shortCommit(Sources.Loaded loaded) {
    String commit = loaded.ref().commit();
    return "commit " + (commit == null ? "?" : commit.substring(0, Math.min(12, commit.length())));
  }

  private static String shellWord(String word) {
    return word.matches("[A-Za-z0-9_./:=@+,-]+") ? word : "'" + word.replace("'", "'\\''") + "'";
  }
}
