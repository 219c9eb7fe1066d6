package dev.cortex.e2e.agentserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.Outcome;
import dev.cortex.testing.TestJson;
import io.modelcontextprotocol.spec.McpSchema;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The file tools of {@code core} ({@code remote_read}, {@code remote_write}, {@code remote_edit},
 * {@code remote_glob}, {@code remote_grep}) through everything they cross, on real {@code cortex
 * client} devices on loopback ({@link RemoteDevices}): box1 searching with ripgrep when it is
 * installed, box2 with the built-in search.
 */
class RemoteFilesIT extends OnTwoDevices {
  @Test
  void remoteRead_text_numbersLines_pagesWithOffsetAndLimit() throws Exception {
    Path file = Files.createDirectories(files.resolve("read")).resolve("lines.txt");
    Files.writeString(file, "one\ntwo\nthree\nfour\n");

    JsonNode all =
        call("remote_read", Map.of("device", "box2", "file_path", file.toString())).structured();
    JsonNode page =
        call(
                "remote_read",
                Map.of("device", "box2", "file_path", file.toString(), "offset", 2, "limit", 2))
            .structured();

    assertThat(all.path("text").path("text").asString())
        .isEqualTo("     1\tone\n     2\ttwo\n     3\tthree\n     4\tfour\n");
    assertThat(all.path("total_lines").asInt()).isEqualTo(4);
    assertThat(page.path("text").path("text").asString()).isEqualTo("     2\ttwo\n     3\tthree\n");
    assertThat(page.path("start_line").asInt()).isEqualTo(2);
    assertThat(page.path("lines_returned").asInt()).isEqualTo(2);
  }

  @Test
  void remoteRead_largeImage_comesBackScaledAsImageContent() throws Exception {
    BufferedImage image = new BufferedImage(3200, 1600, BufferedImage.TYPE_INT_RGB);
    ByteArrayOutputStream png = new ByteArrayOutputStream();
    ImageIO.write(image, "png", png);
    Path file = files.resolve("shot.data");
    Files.write(file, png.toByteArray());

    McpSchema.CallToolResult result =
        client.callTool(
            new McpSchema.CallToolRequest(
                "remote_read", Map.of("device", "box1", "file_path", file.toString()), null));

    JsonNode structured = TestJson.JSON.valueToTree(result.structuredContent());
    assertThat(structured.path("kind").asString()).isEqualTo("image");
    assertThat(structured.path("image").path("width").asInt()).isEqualTo(3200);
    assertThat(structured.path("image").path("sent_width").asInt()).isEqualTo(1516);
    McpSchema.ImageContent sent =
        (McpSchema.ImageContent)
            result.content().stream()
                .filter(c -> c instanceof McpSchema.ImageContent)
                .findFirst()
                .orElseThrow();
    assertThat(sent.mimeType()).isEqualTo("image/png");
    BufferedImage decoded =
        ImageIO.read(new java.io.ByteArrayInputStream(Base64.getDecoder().decode(sent.data())));
    assertThat(decoded.getWidth()).isEqualTo(1516);
    assertThat(decoded.getHeight()).isEqualTo(758);
  }

  @Test
  void remoteRead_pdf_comesBackAsAnEmbeddedResource() throws Exception {
    Path file = files.resolve("doc.pdf");
    Files.writeString(file, "%PDF-1.4\n%test\n");

    McpSchema.CallToolResult result =
        client.callTool(
            new McpSchema.CallToolRequest(
                "remote_read", Map.of("device", "box2", "file_path", file.toString()), null));

    McpSchema.EmbeddedResource resource =
        (McpSchema.EmbeddedResource)
            result.content().stream()
                .filter(c -> c instanceof McpSchema.EmbeddedResource)
                .findFirst()
                .orElseThrow();
    McpSchema.BlobResourceContents blob = (McpSchema.BlobResourceContents) resource.resource();
    assertThat(blob.mimeType()).isEqualTo("application/pdf");
    assertThat(new String(Base64.getDecoder().decode(blob.blob()), StandardCharsets.UTF_8))
        .startsWith("%PDF-1.4");
  }

  @Test
  void remoteRead_refusals_sayWhatToDo() throws Exception {
    Path big = files.resolve("big.txt");
    Files.writeString(big, "x".repeat(100).concat("\n").repeat(3000));

    Outcome missing =
        call(
            "remote_read",
            Map.of("device", "box1", "file_path", files.resolve("nope.txt").toString()));
    Outcome relative = call("remote_read", Map.of("device", "box1", "file_path", "relative/path"));
    Outcome folder = call("remote_read", Map.of("device", "box1", "file_path", files.toString()));
    Outcome tooLarge = call("remote_read", Map.of("device", "box1", "file_path", big.toString()));
    Outcome limited =
        call("remote_read", Map.of("device", "box1", "file_path", big.toString(), "limit", 10));

    assertThat(missing.errorCode()).isEqualTo("NOT_FOUND");
    assertThat(relative.errorCode()).isEqualTo("INVALID_ARGUMENT");
    assertThat(relative.errorMessage()).contains("absolute");
    assertThat(folder.errorMessage()).contains("is a directory");
    assertThat(tooLarge.errorCode()).isEqualTo("TOO_LARGE");
    assertThat(tooLarge.errorMessage()).contains("limit 2000");
    assertThat(limited.structured().path("lines_returned").asInt()).isEqualTo(10);
  }

  @Test
  void agentsMd_isSentOncePerFilePerSession_andAgainWhenItChanges() throws Exception {
    Path project = Files.createDirectories(files.resolve("project").resolve("src"));
    Files.writeString(files.resolve("project").resolve("AGENTS.md"), "Use tabs.\n");
    Files.writeString(project.resolve("AGENTS.local.md"), "Local rule.\n");
    Files.writeString(project.resolve("a.txt"), "a\n");
    Files.writeString(project.resolve("b.txt"), "b\n");

    JsonNode first = read("box1", project.resolve("a.txt")).path("agents_md");
    JsonNode again = read("box1", project.resolve("a.txt")).path("agents_md");
    JsonNode sibling = read("box1", project.resolve("b.txt")).path("agents_md");
    JsonNode otherDevice = read("box2", project.resolve("a.txt")).path("agents_md");
    Files.writeString(files.resolve("project").resolve("AGENTS.md"), "Use spaces.\n");
    JsonNode changed = read("box1", project.resolve("a.txt")).path("agents_md");

    assertThat(first.findValuesAsString("content")).containsExactly("Use tabs.\n", "Local rule.\n");
    assertThat(again).isEmpty();
    assertThat(sibling).isEmpty();
    assertThat(otherDevice.size()).as("another device's files are other files").isEqualTo(2);
    assertThat(changed.findValuesAsString("content")).containsExactly("Use spaces.\n");
  }

  static JsonNode read(String device, Path file) {
    return call("remote_read", Map.of("device", device, "file_path", file.toString())).structured();
  }

  @Test
  void remoteWrite_createsFolders_andKeepsCrlf() throws Exception {
    Path target = files.resolve("new").resolve("deep").resolve("file.txt");
    Path crlf = files.resolve("windows.txt");
    Files.writeString(crlf, "a\r\nb\r\n");

    JsonNode created =
        call(
                "remote_write",
                Map.of("device", "box1", "file_path", target.toString(), "content", "hi\n"))
            .structured();
    JsonNode kept =
        call(
                "remote_write",
                Map.of("device", "box1", "file_path", crlf.toString(), "content", "x\ny\n"))
            .structured();

    assertThat(created.path("created").asBoolean()).isTrue();
    assertThat(Files.readString(target)).isEqualTo("hi\n");
    assertThat(kept.path("line_endings").asString()).isEqualTo("crlf");
    assertThat(Files.readString(crlf)).isEqualTo("x\r\ny\r\n");
  }

  @Test
  void remoteEdit_uniqueReplaceAllAndMismatch() throws Exception {
    Path file = files.resolve("edit.txt");
    Files.writeString(file, "alpha beta\nbeta gamma\n");

    Outcome ambiguous = edit(file, "beta", "BETA", false);
    Outcome missing = edit(file, "delta", "x", false);
    Outcome unique = edit(file, "alpha", "ALPHA", false);
    Outcome all = edit(file, "beta", "BETA", true);

    assertThat(ambiguous.errorCode()).isEqualTo("EDIT_MISMATCH");
    assertThat(ambiguous.errorMessage()).contains("appears 2 times").contains("replace_all");
    assertThat(missing.errorCode()).isEqualTo("EDIT_MISMATCH");
    assertThat(unique.structured().path("replacements").asInt()).isEqualTo(1);
    assertThat(all.structured().path("replacements").asInt()).isEqualTo(2);
    assertThat(Files.readString(file)).isEqualTo("ALPHA BETA\nBETA gamma\n");
  }

  /**
   * {@code A/dir-link/../secret.txt}, where {@code dir-link} points into {@code E}: the shell reads
   * {@code E/secret.txt}, and so must the file tools (lexically, the path would name {@code
   * A/secret.txt}).
   */
  @Test
  void fileTools_dotDotAfterALink_resolveAsTheShellDoes() throws Exception {
    Path a = Files.createDirectories(files.resolve("links/A"));
    Path e = Files.createDirectories(files.resolve("links/E/dir"));
    Files.createSymbolicLink(a.resolve("dir-link"), e);
    Files.writeString(a.resolve("secret.txt"), "in A\n");
    Files.writeString(e.resolveSibling("secret.txt"), "in E\n");
    String through = a.resolve("dir-link").toString() + "/../secret.txt";
    String written = a.resolve("dir-link").toString() + "/../written.txt";

    Outcome read = call("remote_read", Map.of("device", "box1", "file_path", through));
    Outcome shell =
        call("remote_bash", Map.of("device", "box1", "command", "cat '" + through + "'"));
    Outcome write =
        call("remote_write", Map.of("device", "box1", "file_path", written, "content", "new\n"));
    Outcome edited = edit(Path.of(through), "in E", "edited in E", false);

    assertThat(shell.structured().path("output").path("text").asString()).isEqualTo("in E\n");
    assertThat(read.structured().path("text").path("text").asString()).isEqualTo("     1\tin E\n");
    assertThat(write.isError()).as(write.text()).isFalse();
    assertThat(e.resolveSibling("written.txt")).hasContent("new");
    assertThat(a.resolve("written.txt")).doesNotExist();
    assertThat(edited.isError()).as(edited.text()).isFalse();
    assertThat(e.resolveSibling("secret.txt")).hasContent("edited in E");
    assertThat(a.resolve("secret.txt")).hasContent("in A");
  }

  static Outcome edit(Path file, String old, String replacement, boolean all) {
    return call(
        "remote_edit",
        Map.of(
            "device",
            "box1",
            "file_path",
            file.toString(),
            "old_string",
            old,
            "new_string",
            replacement,
            "replace_all",
            all));
  }

  @Test
  void remoteGlob_findsNewestFirst_skippingDependencyFolders() throws Exception {
    Path root = Files.createDirectories(files.resolve("globbed"));
    Files.createDirectories(root.resolve("src/deep"));
    Files.createDirectories(root.resolve("node_modules/pkg"));
    Files.writeString(root.resolve("top.py"), "");
    Files.writeString(root.resolve("src/deep/inner.py"), "");
    Files.writeString(root.resolve("node_modules/pkg/skipped.py"), "");
    Files.setLastModifiedTime(
        root.resolve("top.py"), java.nio.file.attribute.FileTime.fromMillis(1_000_000));

    JsonNode found =
        call("remote_glob", Map.of("device", "box2", "pattern", "**/*.py", "path", root.toString()))
            .structured();

    assertThat(found.path("files").path("text").asString().split("\n"))
        .containsExactly(
            root.resolve("src/deep/inner.py").toString(), root.resolve("top.py").toString());
  }

  @Test
  void remoteGrep_everyMode_ripgrepAndTheBuiltInSearchAgree() throws Exception {
    Path root = Files.createDirectories(files.resolve("grepped"));
    Files.writeString(
        root.resolve("a.py"), "import os\nprint('Hello')\nx = 1\nprint('hello again')\n");
    Files.writeString(root.resolve("b.js"), "console.log('hello')\n");
    Files.writeString(root.resolve("c.txt"), "nothing here\nfoo\nbar\n");
    long at = 1_700_000_000_000L;
    for (String name : List.of("a.py", "b.js", "c.txt")) {
      Files.setLastModifiedTime(
          root.resolve(name), java.nio.file.attribute.FileTime.fromMillis(at += 60_000));
    }
    List<Map<String, Object>> queries =
        List.of(
            Map.of("pattern", "hello", "-i", true),
            Map.of("pattern", "hello", "output_mode", "count", "-i", true),
            Map.of("pattern", "print", "output_mode", "content", "-C", 1),
            Map.of("pattern", "print", "output_mode", "content", "-n", false),
            Map.of("pattern", "hello", "output_mode", "content", "glob", "*.js"),
            Map.of(
                "pattern",
                "hello",
                "output_mode",
                "content",
                "type",
                "py",
                "-i",
                true,
                "head_limit",
                1),
            Map.of("pattern", "hello", "output_mode", "content", "-i", true, "offset", 1),
            Map.of("pattern", "foo.bar", "output_mode", "content", "multiline", true));
    boolean ripgrep =
        Files.isExecutable(Path.of("/usr/bin/rg"))
            || Files.isExecutable(Path.of("/usr/local/bin/rg"));
    for (Map<String, Object> query : queries) {
      Map<String, Object> args = new HashMap<>(query);
      args.put("path", root.toString());
      args.put("device", "box2");
      JsonNode java = call("remote_grep", args).structured();
      assertThat(java.path("engine").asString()).isEqualTo("java");
      args.put("device", "box1");
      JsonNode other = call("remote_grep", args).structured();
      if (ripgrep) {
        assertThat(other.path("engine").asString()).isEqualTo("ripgrep");
      }
      assertThat(java.path("output").path("text").asString())
          .as("the built-in search answers %s as %s does", query, other.path("engine").asString())
          .isEqualTo(other.path("output").path("text").asString());
      assertThat(java.path("count").asInt()).isEqualTo(other.path("count").asInt());
    }
    JsonNode content =
        call(
                "remote_grep",
                Map.of(
                    "device",
                    "box2",
                    "path",
                    root.toString(),
                    "pattern",
                    "print",
                    "output_mode",
                    "content",
                    "-C",
                    1))
            .structured();
    assertThat(content.path("output").path("text").asString())
        .isEqualTo(
            root.resolve("a.py")
                + "-1-import os\n"
                + root.resolve("a.py")
                + ":2:print('Hello')\n"
                + root.resolve("a.py")
                + "-3-x = 1\n"
                + root.resolve("a.py")
                + ":4:print('hello again')\n");
  }
}
