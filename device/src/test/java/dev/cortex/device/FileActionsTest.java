package dev.cortex.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cortex.protocol.hub.Actions;
import dev.cortex.protocol.webhook.ErrorBody.Codes;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading, writing and editing files on a real temporary folder. */
class FileActionsTest {
  @TempDir Path dir;

  FileActions files() {
    return new FileActions(new AgentsChain(null));
  }

  Actions.ReadResult read(Path file, Integer offset, Integer limit) throws ActionException {
    return files().read(new Actions.Read(file.toString(), offset, limit, false));
  }

  static String code(ThrowingRunnable action) {
    try {
      action.run();
    } catch (ActionException e) {
      return e.body().code();
    }
    throw new AssertionError("no ActionException");
  }

  interface ThrowingRunnable {
    void run() throws ActionException;
  }

  @Test
  void read_textFile_numbersItsLinesFromTheStart() throws Exception {
    Path file = Files.writeString(dir.resolve("a.txt"), "one\ntwo\r\nthree\n");

    Actions.ReadResult read = read(file, null, null);

    assertThat(read.kind()).isEqualTo("text");
    assertThat(read.text()).isEqualTo("     1\tone\n     2\ttwo\n     3\tthree\n");
    assertThat(read.startLine()).isEqualTo(1);
    assertThat(read.linesReturned()).isEqualTo(3);
    assertThat(read.totalLines()).isEqualTo(3);
    assertThat(read.sizeBytes()).isEqualTo(15);
    assertThat(read.agentsMd()).isEmpty();
  }

  @Test
  void read_offsetAndLimit_returnThatPage() throws Exception {
    StringBuilder text = new StringBuilder();
    for (int i = 1; i <= 10; i++) {
      text.append("line ").append(i).append('\n');
    }
    Path file = Files.writeString(dir.resolve("ten.txt"), text);

    Actions.ReadResult read = read(file, 4, 3);

    assertThat(read.text()).isEqualTo("     4\tline 4\n     5\tline 5\n     6\tline 6\n");
    assertThat(read.startLine()).isEqualTo(4);
    assertThat(read.linesReturned()).isEqualTo(3);
    assertThat(read.totalLines()).isEqualTo(10);
  }

  @Test
  void read_lineLongerThanTheCap_isCutAndSaysSo() throws Exception {
    Path file =
        Files.writeString(dir.resolve("long.txt"), "x".repeat(Actions.MAX_LINE_CHARS + 10) + "\n");

    Actions.ReadResult read = read(file, null, null);

    assertThat(read.linesCut()).isTrue();
    assertThat(read.text()).endsWith("x… [line cut]\n");
  }

  @Test
  void read_offsetPastTheEnd_isRefusedNamingTheLineCount() throws Exception {
    Path file = Files.writeString(dir.resolve("short.txt"), "a\nb\n");

    assertThatThrownBy(() -> read(file, 5, null))
        .isInstanceOf(ActionException.class)
        .hasMessageContaining("has 2 lines; offset 5 is past its end");
  }

  @Test
  void read_badPathsAndKinds_failWithStableCodes() throws Exception {
    Path binary = Files.write(dir.resolve("blob.bin"), new byte[] {1, 0, 2, 0});

    assertThat(code(() -> files().read(new Actions.Read("relative.txt", null, null, false))))
        .isEqualTo(Codes.INVALID_ARGUMENT);
    assertThat(code(() -> read(dir.resolve("missing.txt"), null, null))).isEqualTo(Codes.NOT_FOUND);
    assertThat(code(() -> read(dir, null, null))).isEqualTo(Codes.INVALID_ARGUMENT);
    assertThat(code(() -> read(binary, null, null))).isEqualTo(Codes.INVALID_ARGUMENT);
    assertThat(code(() -> read(dir.resolve("a.txt"), 0, null))).isEqualTo(Codes.INVALID_ARGUMENT);
  }

  @Test
  void read_largeTextWithoutALimit_isTooLargeAndSaysHowToPage() throws Exception {
    Path file =
        Files.writeString(
            dir.resolve("big.txt"),
            "0123456789\n".repeat((int) (Actions.MAX_TEXT_BYTES_WITHOUT_LIMIT / 11) + 10));

    assertThatThrownBy(() -> read(file, null, null))
        .isInstanceOfSatisfying(
            ActionException.class, e -> assertThat(e.body().code()).isEqualTo(Codes.TOO_LARGE))
        .hasMessageContaining("offset 1 with limit 2000");
    assertThat(read(file, 1, 2).linesReturned()).isEqualTo(2);
  }

  @Test
  void read_pngAndPdf_comeBackAsTheirBytes() throws Exception {
    byte[] png = {(byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0};
    Path image = Files.write(dir.resolve("picture.dat"), png);
    Path pdf = Files.writeString(dir.resolve("doc"), "%PDF-1.4\n%%EOF\n");

    Actions.ReadResult readImage = read(image, null, null);
    Actions.ReadResult readPdf = read(pdf, null, null);

    assertThat(readImage.kind()).isEqualTo("image");
    assertThat(readImage.mimeType()).isEqualTo("image/png");
    assertThat(Base64.getDecoder().decode(readImage.data())).isEqualTo(png);
    assertThat(readImage.text()).isNull();
    assertThat(readPdf.kind()).isEqualTo("pdf");
    assertThat(readPdf.mimeType()).isEqualTo("application/pdf");
  }

  @Test
  void read_withAgentsMd_sendsTheChainOutermostFirst() throws Exception {
    Path home = Files.writeString(dir.resolve("home-AGENTS.md"), "home rules");
    Path project = Files.createDirectories(dir.resolve("project/src"));
    Files.writeString(dir.resolve("project/AGENTS.md"), "project rules");
    Files.writeString(project.resolve("AGENTS.local.md"), "local rules");
    Path file = Files.writeString(project.resolve("main.py"), "print(1)\n");

    Actions.ReadResult read =
        new FileActions(new AgentsChain(home))
            .read(new Actions.Read(file.toString(), null, null, true));

    assertThat(read.agentsMd())
        .extracting(Actions.AgentsFile::content)
        .containsExactly("home rules", "project rules", "local rules");
    assertThat(read.agentsMd().get(0).sha256()).hasSize(64);
  }

  @Test
  void write_newFileInMissingFolders_createsThemAndSaysCreated() throws Exception {
    Path file = dir.resolve("a/b/c.txt");

    Actions.WriteResult written =
        files().write(new Actions.Write(file.toString(), "hello\n", false));

    assertThat(written.created()).isTrue();
    assertThat(written.bytes()).isEqualTo(6);
    assertThat(written.lineEndings()).isEqualTo("lf");
    assertThat(Files.readString(file)).isEqualTo("hello\n");
    try (var left = Files.list(file.getParent())) {
      assertThat(left).containsExactly(file);
    }
  }

  @Test
  void write_overCrlfFile_keepsCrlfAndItsPermissions() throws Exception {
    assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"));
    Path file = Files.writeString(dir.resolve("win.txt"), "old\r\nlines\r\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-x---"));

    Actions.WriteResult written =
        files().write(new Actions.Write(file.toString(), "new\nlines\n", false));

    assertThat(written.created()).isFalse();
    assertThat(written.lineEndings()).isEqualTo("crlf");
    assertThat(Files.readString(file)).isEqualTo("new\r\nlines\r\n");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rwxr-x---");
  }

  @Test
  void write_throughALink_changesItsTargetAndKeepsTheLink() throws Exception {
    Path target = Files.writeString(dir.resolve("target.txt"), "before");
    Path link = Files.createSymbolicLink(dir.resolve("link.txt"), target);

    files().write(new Actions.Write(link.toString(), "after", false));

    assertThat(Files.isSymbolicLink(link)).isTrue();
    assertThat(Files.readString(target)).isEqualTo("after");
  }

  /** Regression: a link to a missing file was replaced by a regular file, the link lost. */
  @Test
  void write_throughADanglingLink_createsItsTargetAndKeepsTheLink() throws Exception {
    Path link = Files.createSymbolicLink(dir.resolve("link.txt"), Path.of("missing.txt"));

    Actions.WriteResult written = files().write(new Actions.Write(link.toString(), "new", false));

    assertThat(written.created()).isTrue();
    assertThat(Files.isSymbolicLink(link)).isTrue();
    assertThat(dir.resolve("missing.txt")).hasContent("new");
  }

  @Test
  void write_throughAChainOfLinks_changesTheLastTarget() throws Exception {
    Files.createDirectories(dir.resolve("sub"));
    Files.createSymbolicLink(dir.resolve("sub/second.txt"), Path.of("../end.txt"));
    Path first = Files.createSymbolicLink(dir.resolve("first.txt"), dir.resolve("sub/second.txt"));

    files().write(new Actions.Write(first.toString(), "end", false));

    assertThat(Files.isSymbolicLink(first)).isTrue();
    assertThat(Files.isSymbolicLink(dir.resolve("sub/second.txt"))).isTrue();
    assertThat(dir.resolve("end.txt")).hasContent("end");
  }

  @Test
  void write_throughADanglingLinkIntoAMissingFolder_isNotFoundAndMakesNothing() throws Exception {
    Path link = Files.createSymbolicLink(dir.resolve("link.txt"), dir.resolve("gone/deep/x.txt"));

    assertThat(code(() -> files().write(new Actions.Write(link.toString(), "new", false))))
        .isEqualTo(Codes.NOT_FOUND);
    assertThat(dir.resolve("gone")).doesNotExist();
    assertThat(Files.isSymbolicLink(link)).isTrue();
  }

  @Test
  void write_throughALinkLoop_isInvalidAndKeepsTheLinks() throws Exception {
    Path a = dir.resolve("a.txt");
    Path b = Files.createSymbolicLink(dir.resolve("b.txt"), a);
    Files.createSymbolicLink(a, b);

    assertThat(code(() -> files().write(new Actions.Write(a.toString(), "new", false))))
        .isEqualTo(Codes.INVALID_ARGUMENT);
    assertThat(Files.isSymbolicLink(a)).isTrue();
    assertThat(Files.isSymbolicLink(b)).isTrue();
  }

  @Test
  void readAndEdit_ofADanglingLink_areNotFoundAndKeepTheLink() throws Exception {
    Path link = Files.createSymbolicLink(dir.resolve("link.txt"), dir.resolve("missing.txt"));

    assertThat(code(() -> read(link, null, null))).isEqualTo(Codes.NOT_FOUND);
    assertThat(code(() -> files().edit(new Actions.Edit(link.toString(), "a", "b", false, false))))
        .isEqualTo(Codes.NOT_FOUND);
    assertThat(Files.isSymbolicLink(link)).isTrue();
    assertThat(dir.resolve("missing.txt")).doesNotExist();
  }

  @Test
  void edit_throughALink_changesItsTargetAndKeepsTheLink() throws Exception {
    Path target = Files.writeString(dir.resolve("target.txt"), "before\n");
    Path link = Files.createSymbolicLink(dir.resolve("link.txt"), target);

    files().edit(new Actions.Edit(link.toString(), "before", "after", false, false));

    assertThat(Files.isSymbolicLink(link)).isTrue();
    assertThat(target).hasContent("after");
  }

  /**
   * A tree where {@code A/dir-link} points to {@code E/dir}: {@code A/dir-link/..} is {@code E}.
   */
  Path linkedTree() throws Exception {
    Path a = Files.createDirectories(dir.resolve("A"));
    Path e = Files.createDirectories(dir.resolve("E/dir"));
    Files.createSymbolicLink(a.resolve("dir-link"), e);
    Files.writeString(a.resolve("secret.txt"), "in A\n");
    Files.writeString(dir.resolve("E/secret.txt"), "in E\n");
    return a.resolve("dir-link");
  }

  @Test
  void read_dotDotAfterALinkToAFolder_readsThatFoldersParent_asTheShellDoes() throws Exception {
    Path link = linkedTree();

    Actions.ReadResult read =
        files().read(new Actions.Read(link + "/../secret.txt", null, null, false));

    assertThat(read.text()).isEqualTo("     1\tin E\n");
  }

  @Test
  void writeAndEdit_dotDotAfterALink_changeTheFileTheShellWould() throws Exception {
    Path link = linkedTree();

    files().write(new Actions.Write(link + "/../new/deep.txt", "made\n", false));
    files().edit(new Actions.Edit(link + "/../secret.txt", "in E", "edited", false, false));

    assertThat(dir.resolve("E/new/deep.txt")).hasContent("made");
    assertThat(dir.resolve("A/new")).doesNotExist();
    assertThat(dir.resolve("E/secret.txt")).hasContent("edited");
    assertThat(dir.resolve("A/secret.txt")).hasContent("in A");
  }

  @Test
  void readAndEdit_throughAMissingFolder_areNotFound_evenWhenDotDotLeavesIt() throws Exception {
    Files.writeString(dir.resolve("there.txt"), "x\n");
    String path = dir + "/missing/../there.txt";

    assertThat(code(() -> files().read(new Actions.Read(path, null, null, false))))
        .isEqualTo(Codes.NOT_FOUND);
    assertThat(code(() -> files().edit(new Actions.Edit(path, "x", "y", false, false))))
        .isEqualTo(Codes.NOT_FOUND);
    assertThat(dir.resolve("there.txt")).hasContent("x");
  }

  @Test
  void write_ontoAFolderOrWithoutContent_isRefused() {
    assertThat(code(() -> files().write(new Actions.Write(dir.toString(), "x", false))))
        .isEqualTo(Codes.INVALID_ARGUMENT);
    assertThat(
            code(
                () ->
                    files().write(new Actions.Write(dir.resolve("n.txt").toString(), null, false))))
        .isEqualTo(Codes.INVALID_ARGUMENT);
    assertThat(dir.resolve("n.txt")).doesNotExist();
  }

  @Test
  void edit_uniqueOldString_replacesItOnce() throws Exception {
    Path file = Files.writeString(dir.resolve("e.txt"), "alpha beta gamma\n");

    Actions.EditResult edited =
        files().edit(new Actions.Edit(file.toString(), "beta", "BETA", false, false));

    assertThat(edited.replacements()).isEqualTo(1);
    assertThat(edited.lineEndings()).isEqualTo("lf");
    assertThat(Files.readString(file)).isEqualTo("alpha BETA gamma\n");
  }

  @Test
  void edit_oldStringTwice_isAMismatchAndChangesNothing() throws Exception {
    Path file = Files.writeString(dir.resolve("e.txt"), "x = 1\nx = 1\n");

    assertThatThrownBy(
            () -> files().edit(new Actions.Edit(file.toString(), "x = 1", "x = 2", false, false)))
        .isInstanceOfSatisfying(
            ActionException.class, e -> assertThat(e.body().code()).isEqualTo(Codes.EDIT_MISMATCH))
        .hasMessageContaining("appears 2 times");
    assertThat(Files.readString(file)).isEqualTo("x = 1\nx = 1\n");
  }

  @Test
  void edit_replaceAll_replacesEveryOccurrence() throws Exception {
    Path file = Files.writeString(dir.resolve("e.txt"), "x = 1\nx = 1\n");

    Actions.EditResult edited =
        files().edit(new Actions.Edit(file.toString(), "x = 1", "x = 2", true, false));

    assertThat(edited.replacements()).isEqualTo(2);
    assertThat(Files.readString(file)).isEqualTo("x = 2\nx = 2\n");
  }

  @Test
  void edit_missingOldString_isAMismatch() throws Exception {
    Path file = Files.writeString(dir.resolve("e.txt"), "content\n");

    assertThat(
            code(
                () -> files().edit(new Actions.Edit(file.toString(), "absent", "x", false, false))))
        .isEqualTo(Codes.EDIT_MISMATCH);
  }

  @Test
  void edit_crlfFileWithLfOldString_matchesAndKeepsCrlf() throws Exception {
    Path file = Files.writeString(dir.resolve("e.txt"), "one\r\ntwo\r\nthree\r\n");

    Actions.EditResult edited =
        files().edit(new Actions.Edit(file.toString(), "one\ntwo", "1\n2", false, false));

    assertThat(edited.lineEndings()).isEqualTo("crlf");
    assertThat(Files.readString(file, StandardCharsets.UTF_8)).isEqualTo("1\r\n2\r\nthree\r\n");
  }

  @Test
  void edit_badRequests_areRefusedWithoutTouchingTheFile() throws Exception {
    Path file = Files.writeString(dir.resolve("e.txt"), "same\n");

    assertThat(code(() -> files().edit(new Actions.Edit(file.toString(), "", "x", false, false))))
        .isEqualTo(Codes.INVALID_ARGUMENT);
    assertThat(
            code(
                () ->
                    files().edit(new Actions.Edit(file.toString(), "same", "same", false, false))))
        .isEqualTo(Codes.INVALID_ARGUMENT);
    assertThat(
            code(
                () ->
                    files()
                        .edit(
                            new Actions.Edit(
                                dir.resolve("none.txt").toString(), "a", "b", false, false))))
        .isEqualTo(Codes.NOT_FOUND);
    assertThat(Files.readString(file)).isEqualTo("same\n");
  }

  Actions.ReadBytesResult bytes(Path file, Long offset, Integer length) throws ActionException {
    return files().readBytes(new Actions.ReadBytes(file.toString(), offset, length));
  }

  @Test
  void readBytes_binaryFile_comesBackExactlyInChunks() throws Exception {
    byte[] content = new byte[2 * Actions.MAX_CHUNK_BYTES + 17];
    new java.util.Random(7).nextBytes(content);
    content[0] = 0;
    content[content.length - 1] = 0;
    Path file = Files.write(dir.resolve("blob.bin"), content);

    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    int chunks = 0;
    Actions.ReadBytesResult chunk;
    do {
      chunk = bytes(file, (long) out.size(), Actions.MAX_CHUNK_BYTES);
      out.writeBytes(Base64.getDecoder().decode(chunk.data()));
      assertThat(chunk.size()).isEqualTo(content.length);
      chunks++;
    } while (!chunk.eof());

    assertThat(out.toByteArray()).isEqualTo(content);
    assertThat(chunks).isEqualTo(3);
  }

  @Test
  void readBytes_atOrPastTheEnd_isEmptyAndAtEof() throws Exception {
    Path file = Files.write(dir.resolve("small.bin"), new byte[] {1, 0, 2});
    Path empty = Files.write(dir.resolve("empty.bin"), new byte[0]);

    Actions.ReadBytesResult past = bytes(file, 10L, 5);
    Actions.ReadBytesResult none = bytes(empty, 0L, 5);
    Actions.ReadBytesResult middle = bytes(file, 1L, 1);

    assertThat(past.data()).isEmpty();
    assertThat(past.eof()).isTrue();
    assertThat(none.eof()).isTrue();
    assertThat(none.size()).isZero();
    assertThat(Base64.getDecoder().decode(middle.data())).containsExactly(0);
    assertThat(middle.eof()).isFalse();
  }

  @Test
  void readBytes_badPathsAndArguments_failWithStableCodes() throws Exception {
    Path file = Files.write(dir.resolve("f.bin"), new byte[] {1});

    assertThat(code(() -> bytes(dir.resolve("missing.bin"), 0L, 1))).isEqualTo(Codes.NOT_FOUND);
    assertThat(code(() -> bytes(dir, 0L, 1))).isEqualTo(Codes.INVALID_ARGUMENT);
    assertThat(code(() -> bytes(Path.of("relative.bin"), 0L, 1))).isEqualTo(Codes.INVALID_ARGUMENT);
    assertThat(code(() -> bytes(file, -1L, 1))).isEqualTo(Codes.INVALID_ARGUMENT);
    assertThat(code(() -> bytes(file, null, 1))).isEqualTo(Codes.INVALID_ARGUMENT);
    assertThat(code(() -> bytes(file, 0L, 0))).isEqualTo(Codes.INVALID_ARGUMENT);
    assertThat(code(() -> bytes(file, 0L, Actions.MAX_CHUNK_BYTES + 1)))
        .isEqualTo(Codes.INVALID_ARGUMENT);
  }
}
