package dev.cortex.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.base.StartupException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** Failures that escape a command: one sentence and a stable exit code, never a stack. */
class EscapedFailureTest {
  final ByteArrayOutputStream err = new ByteArrayOutputStream();
  final Io io =
      new Io(
          new ByteArrayInputStream(new byte[0]),
          new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
          new PrintStream(err, true, StandardCharsets.UTF_8),
          Map.of());

  String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void render_ourSentence_isPrintedAsAUsageError() {
    int code =
        EscapedFailure.render(
            io, "cortex run", new IllegalArgumentException("--timeout must be above 0."));

    assertThat(code).isEqualTo(CortexCommand.USAGE);
    assertThat(err()).isEqualTo("cortex: --timeout must be above 0." + System.lineSeparator());
  }

  @Test
  void render_startupProblem_isAUsageError() {
    int code = EscapedFailure.render(io, "cortex mcp", new StartupException("Set CORTEX_HOME."));

    assertThat(code).isEqualTo(CortexCommand.USAGE);
    assertThat(err()).startsWith("cortex: Set CORTEX_HOME.");
  }

  /** Regression: an enum's lookup printed "No enum constant dev.cortex...." to the person. */
  @Test
  void render_messageNamingAJavaClass_isAPlainSentence() {
    int code =
        EscapedFailure.render(
            io,
            "cortex tools call",
            new IllegalArgumentException("No enum constant dev.cortex.workflows.Kind.SHEL"));

    assertThat(code).isEqualTo(CortexCommand.USAGE);
    assertThat(err())
        .isEqualTo(
            "cortex: a value given to 'cortex tools call' is not valid; see 'cortex tools call"
                + " --help'."
                + System.lineSeparator())
        .doesNotContain("dev.cortex");
  }

  @Test
  void render_messageNamingTheUsersOwnClass_isKept() {
    EscapedFailure.render(
        io,
        "cortex collect-test",
        new IllegalArgumentException("No results for com.example.shop.CartTest in the report."));

    assertThat(err()).startsWith("cortex: No results for com.example.shop.CartTest in the report.");
  }

  @Test
  void render_stateMessageNamingAnException_isAPlainSentence() {
    int code =
        EscapedFailure.render(
            io,
            "cortex worker",
            new IllegalStateException("the runtime is broken: java.lang.NoSuchMethodError: x"));

    assertThat(code).isEqualTo(CortexCommand.FAILED);
    assertThat(err())
        .isEqualTo(
            "cortex: 'cortex worker' stopped on an unexpected fault." + System.lineSeparator());
  }

  /** Regression: an exception without a message printed "cortex: null". */
  @Test
  void render_noMessage_isAPlainSentence() {
    int code = EscapedFailure.render(io, "cortex run", new IllegalArgumentException());

    assertThat(code).isEqualTo(CortexCommand.USAGE);
    assertThat(err()).doesNotContain("null").contains("'cortex run' is not valid");
  }

  @Test
  void render_messageOfManyLines_isAPlainSentence() {
    EscapedFailure.render(
        io, "cortex run", new IllegalArgumentException("Unclosed group near index 3\n(ab\n   ^"));

    assertThat(err()).doesNotContain("^").contains("is not valid");
  }

  @Test
  void render_badDate_isAUsageError() {
    int code =
        EscapedFailure.render(
            io,
            "cortex runs list",
            new DateTimeParseException("Text 'x' could not be parsed", "x", 0));

    assertThat(code).isEqualTo(CortexCommand.USAGE);
    assertThat(err()).startsWith("cortex: Text 'x' could not be parsed");
  }

  @Test
  void render_validationInsideAFuture_isTheValidationsSentence() {
    int code =
        EscapedFailure.render(
            io,
            "cortex run",
            new CompletionException(new IllegalArgumentException("No workflow 'x'.")));

    assertThat(code).isEqualTo(CortexCommand.USAGE);
    assertThat(err()).startsWith("cortex: No workflow 'x'.");
  }

  @Test
  void render_uncheckedIo_namesTheFileAndFails() {
    int code =
        EscapedFailure.render(
            io,
            "cortex evidence",
            new UncheckedIOException(
                "cannot read policy.json", new IOException("Permission denied")));

    assertThat(code).isEqualTo(CortexCommand.FAILED);
    assertThat(err()).startsWith("cortex: cannot read policy.json: Permission denied");
  }

  @Test
  void render_checkedIo_fails() {
    int code = EscapedFailure.render(io, "cortex signal", new NoSuchFileException("data.json"));

    assertThat(code).isEqualTo(CortexCommand.FAILED);
    assertThat(err()).startsWith("cortex: a file or connection failed: data.json");
  }

  /** Regression: any other fault escaped to picocli, which printed its stack trace. */
  @Test
  void render_unexpectedFault_isOneSentenceWithoutItsStack() {
    RuntimeException fault = new NullPointerException("Cannot invoke \"String.length()\"");

    int code = EscapedFailure.render(io, "cortex status", fault);

    assertThat(code).isEqualTo(CortexCommand.FAILED);
    assertThat(err())
        .isEqualTo(
            "cortex: 'cortex status' stopped on an unexpected fault." + System.lineSeparator());
  }

  @Test
  void render_unexpectedFaultThroughTheCommandLine_hasNoStack() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code =
        Main.run(
            new ByteArrayInputStream(new byte[0]),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            Map.of("CORTEX_HOME", "\0"),
            "status");

    assertThat(err()).doesNotContain("\tat ").doesNotContain("Exception");
    assertThat(code).isIn(CortexCommand.FAILED, CortexCommand.USAGE);
  }
}
