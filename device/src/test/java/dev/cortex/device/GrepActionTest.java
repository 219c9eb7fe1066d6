package dev.cortex.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cortex.base.Deadline;
import dev.cortex.process.Executables;
import dev.cortex.protocol.hub.Actions;
import dev.cortex.protocol.webhook.ErrorBody.Codes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Searching file contents on a real temporary folder: with the built-in search always, and with
 * ripgrep too when this machine has it, which must agree.
 */
class GrepActionTest {
  @TempDir Path dir;

  static final Map<String, String> ENV = System.getenv();
  static final Deadline A_MINUTE = Deadline.after(Duration.ofMinutes(1), Clock.systemUTC());

  /** The engines to search with: the built-in search (null), and rg when it is on the PATH. */
  static Stream<String> engines() {
    List<String> engines = new ArrayList<>();
    engines.add(null);
    Executables.find("rg", ENV, null).ifPresent(rg -> engines.add(rg.toString()));
    return engines.stream();
  }

  Path file(String relative, String text, String modified) throws IOException {
    Path file = dir.resolve(relative);
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
    Files.setLastModifiedTime(file, FileTime.from(Instant.parse(modified)));
    return file;
  }

  static Actions.Grep grep(String pattern, String mode) {
    return new Actions.Grep(
        pattern, null, null, null, mode, null, null, null, false, null, null, null, false);
  }

  Actions.GrepResult search(String rg, Actions.Grep params) throws ActionException {
    return new GrepAction(dir, rg, ENV).grep(params, A_MINUTE);
  }

  @ParameterizedTest
  @MethodSource("engines")
  void grep_filesWithMatches_listsThePathsNewestFirst(String rg) throws Exception {
    Path older = file("a.txt", "needle\n", "2026-01-01T00:00:00Z");
    Path newer = file("sub/b.txt", "a needle here\n", "2026-06-01T00:00:00Z");
    file("c.txt", "nothing\n", "2026-12-01T00:00:00Z");

    Actions.GrepResult result = search(rg, grep("needle", null));

    assertThat(result.engine()).isEqualTo(rg == null ? "java" : "ripgrep");
    assertThat(result.mode()).isEqualTo("files_with_matches");
    assertThat(result.output()).isEqualTo(newer + "\n" + older + "\n");
    assertThat(result.count()).isEqualTo(2);
    assertThat(result.truncated()).isFalse();
  }

  @ParameterizedTest
  @MethodSource("engines")
  void grep_contentWithContext_numbersLinesAndSeparatesGroups(String rg) throws Exception {
    Path file = file("code.py", "a\nmatch one\nb\nc\nd\nmatch two\ne\n", "2026-01-01T00:00:00Z");

    Actions.GrepResult result =
        search(
            rg,
            new Actions.Grep(
                "match", null, null, null, "content", null, null, 1, false, null, null, null,
                false));

    assertThat(result.output())
        .isEqualTo(
            String.join(
                "\n",
                file + "-1-a",
                file + ":2:match one",
                file + "-3-b",
                "--",
                file + "-5-d",
                file + ":6:match two",
                file + "-7-e",
                ""));
    assertThat(result.count()).isEqualTo(6);
  }

  @ParameterizedTest
  @MethodSource("engines")
  void grep_count_givesEachFilesMatchingLines(String rg) throws Exception {
    Path a = file("a.txt", "x\nx\ny\n", "2026-01-01T00:00:00Z");
    Path b = file("b.txt", "x\n", "2026-01-01T00:00:00Z");

    Actions.GrepResult result = search(rg, grep("x", "count"));

    assertThat(result.output()).isEqualTo(a + ":2\n" + b + ":1\n");
    assertThat(result.count()).isEqualTo(3);
  }

  @ParameterizedTest
  @MethodSource("engines")
  void grep_ignoreCaseAndGlob_selectWhatIsSearched(String rg) throws Exception {
    Path ts = file("web/app.ts", "const Token = 1;\n", "2026-01-01T00:00:00Z");
    file("web/app.js", "const token = 1;\n", "2026-01-01T00:00:00Z");

    Actions.GrepResult result =
        search(
            rg,
            new Actions.Grep(
                "token", null, "*.ts", null, null, null, null, null, true, null, null, null,
                false));

    assertThat(result.output()).isEqualTo(ts + "\n");
  }

  @ParameterizedTest
  @MethodSource("engines")
  void grep_offsetAndHeadLimit_pageThroughTheEntries(String rg) throws Exception {
    Path file = file("lines.txt", "hit 1\nhit 2\nhit 3\nhit 4\n", "2026-01-01T00:00:00Z");

    Actions.GrepResult result =
        search(
            rg,
            new Actions.Grep(
                "hit", null, null, null, "content", null, null, null, false, null, 2, 1, false));

    assertThat(result.output()).isEqualTo(file + ":2:hit 2\n" + file + ":3:hit 3\n");
    assertThat(result.appliedLimit()).isEqualTo(2);
    assertThat(result.appliedOffset()).isEqualTo(1);
    assertThat(result.count()).isEqualTo(4);
  }

  @ParameterizedTest
  @MethodSource("engines")
  void grep_multiline_letsThePatternSpanLines(String rg) throws Exception {
    Path file = file("m.txt", "begin\nmiddle\nend\nother\n", "2026-01-01T00:00:00Z");

    Actions.GrepResult result =
        search(
            rg,
            new Actions.Grep(
                "begin.*end",
                null,
                null,
                null,
                "content",
                null,
                null,
                null,
                false,
                null,
                null,
                null,
                true));

    assertThat(result.output())
        .isEqualTo(file + ":1:begin\n" + file + ":2:middle\n" + file + ":3:end\n");
  }

  @Test
  void grep_builtInSearch_passesOverHiddenBinaryAndDependencyFiles() throws Exception {
    Path kept = file("src/a.txt", "secret\n", "2026-01-01T00:00:00Z");
    file(".hidden/b.txt", "secret\n", "2026-01-01T00:00:00Z");
    file(".dotfile", "secret\n", "2026-01-01T00:00:00Z");
    file("node_modules/c.txt", "secret\n", "2026-01-01T00:00:00Z");
    Files.write(dir.resolve("blob.bin"), new byte[] {'s', 'e', 'c', 'r', 'e', 't', 0, 1});

    assertThat(search(null, grep("secret", null)).output()).isEqualTo(kept + "\n");
  }

  @Test
  void grep_builtInSearch_unknownTypeOrBadPattern_isRefusedSayingWhy() throws Exception {
    file("a.txt", "x\n", "2026-01-01T00:00:00Z");

    assertThatThrownBy(
            () ->
                search(
                    null,
                    new Actions.Grep(
                        "x", null, null, "nosuch", null, null, null, null, false, null, null, null,
                        false)))
        .hasMessageContaining("Unknown type 'nosuch'")
        .hasMessageContaining("py");
    assertThatThrownBy(() -> search(null, grep("(unclosed", null)))
        .isInstanceOfSatisfying(
            ActionException.class,
            e -> assertThat(e.body().code()).isEqualTo(Codes.INVALID_ARGUMENT))
        .hasMessageContaining("not a valid regular expression");
  }

  @Test
  void grep_badRequests_failWithStableCodes() {
    assertThatThrownBy(() -> search(null, grep("", null))).hasMessageContaining("required");
    assertThatThrownBy(() -> search(null, grep("x", "lines")))
        .hasMessageContaining("output_mode must be");
    assertThatThrownBy(
            () ->
                search(
                    null,
                    new Actions.Grep(
                        "x",
                        dir.resolve("missing").toString(),
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        false,
                        null,
                        null,
                        null,
                        false)))
        .isInstanceOfSatisfying(
            ActionException.class, e -> assertThat(e.body().code()).isEqualTo(Codes.NOT_FOUND));
  }

  @ParameterizedTest
  @MethodSource("engines")
  void grep_commandsDeadlineFallen_isUnavailableAndSaysToNarrowIt(String rg) throws Exception {
    file("a.txt", "x\n", "2026-01-01T00:00:00Z");
    Deadline fallen = Deadline.after(Duration.ZERO, Clock.systemUTC());

    assertThatThrownBy(() -> new GrepAction(dir, rg, ENV).grep(grep("x", null), fallen))
        .isInstanceOfSatisfying(
            ActionException.class, e -> assertThat(e.body().code()).isEqualTo(Codes.UNAVAILABLE))
        .hasMessage("The search did not finish in the command's time; narrow path, glob or type.");
  }
}
