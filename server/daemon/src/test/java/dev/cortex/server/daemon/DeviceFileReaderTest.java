package dev.cortex.server.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cortex.base.CodedException;
import dev.cortex.protocol.WireJson;
import dev.cortex.protocol.hub.Actions;
import dev.cortex.protocol.hub.Hub;
import dev.cortex.protocol.hub.HubMessage;
import dev.cortex.protocol.hub.Machines;
import dev.cortex.protocol.session.Web;
import dev.cortex.protocol.webhook.ErrorBody;
import dev.cortex.protocol.webhook.ErrorBody.Codes;
import dev.cortex.testing.MovableClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reading a whole file from a device through a real hub, whose device answers each {@code
 * read_bytes} command as it is sent: chunks are put together in order, and every way the device or
 * the file can fail ends the read with a coded error.
 */
class DeviceFileReaderTest {
  final MovableClock clock = new MovableClock(Instant.parse("2026-12-01T10:00:00Z"));
  final DeviceHub hub =
      new DeviceHub(
          () -> Machines.parse("{\"machines\": {\"box1\": {}, \"old\": {}}}"),
          clock,
          new DeviceSettings(Duration.ofMinutes(15), 8, 8));
  final List<Actions.ReadBytes> asked = new CopyOnWriteArrayList<>();

  /** A device whose socket answers each command with what {@code answer} makes of it. */
  void device(String name, List<String> capabilities, Function<Actions.ReadBytes, Object> answer) {
    DeviceLink[] link = new DeviceLink[1];
    DeviceLink.Socket socket =
        new DeviceLink.Socket() {
          @Override
          public void send(String text) {
            HubMessage message = WireJson.read(text);
            if (message instanceof HubMessage.Command command) {
              Actions.ReadBytes params = WireJson.bind(command.params(), Actions.ReadBytes.class);
              asked.add(params);
              Object reply = answer.apply(params);
              link[0].result(
                  reply instanceof ErrorBody error
                      ? new HubMessage.Result(command.id(), null, error)
                      : new HubMessage.Result(command.id(), WireJson.tree(reply), null));
            }
          }

          @Override
          public void close(int code, String reason) {}

          @Override
          public boolean isOpen() {
            return true;
          }
        };
    link[0] =
        new DeviceLink(
            socket,
            new HubMessage.Hello(Hub.VERSION, name, "linux", "amd64", "host", "1.0", capabilities),
            clock.instant());
    assertThat(hub.admit(link[0])).isNull();
  }

  static Object chunkOf(byte[] file, Actions.ReadBytes params) {
    int from = (int) Math.min(params.offset(), file.length);
    int to = Math.min(file.length, from + params.length());
    return new Actions.ReadBytesResult(
        Base64.getEncoder().encodeToString(Arrays.copyOfRange(file, from, to)),
        file.length,
        to >= file.length);
  }

  @TempDir Path dir;

  byte[] read(String device) {
    try {
      Path target = Files.createTempFile(dir, "copy", ".bin");
      long size = new DeviceFileReader(hub).copy(device, "/data/f.bin", Web.MAX_FILE_BYTES, target);
      byte[] bytes = Files.readAllBytes(target);
      assertThat(size).isEqualTo(bytes.length);
      return bytes;
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  static String code(Runnable read) {
    try {
      read.run();
    } catch (CodedException e) {
      return e.code();
    }
    throw new AssertionError("no CodedException");
  }

  @Test
  void read_fileOfSeveralChunks_isPutTogetherInOrder() {
    byte[] file = new byte[2 * Actions.MAX_CHUNK_BYTES + 3];
    new Random(1).nextBytes(file);
    device("box1", List.of("read", Actions.READ_BYTES_CAPABILITY), p -> chunkOf(file, p));

    assertThat(read("box1")).isEqualTo(file);
    List<Long> offsets = new ArrayList<>();
    asked.forEach(p -> offsets.add(p.offset()));
    assertThat(offsets)
        .containsExactly(0L, (long) Actions.MAX_CHUNK_BYTES, 2L * Actions.MAX_CHUNK_BYTES);
    assertThat(asked).allMatch(p -> p.filePath().equals("/data/f.bin"));
  }

  @Test
  void read_emptyFile_isEmpty() {
    device("box1", List.of(Actions.READ_BYTES_CAPABILITY), p -> chunkOf(new byte[0], p));

    assertThat(read("box1")).isEmpty();
  }

  @Test
  void read_deviceWithoutTheCapability_isUnsupported_andIsAskedNothing() {
    device("old", List.of("bash", "read"), p -> chunkOf(new byte[1], p));

    assertThatThrownBy(() -> read("old"))
        .isInstanceOf(CodedException.class)
        .hasMessageContaining("update it");
    assertThat(code(() -> read("old"))).isEqualTo(Codes.UNSUPPORTED);
    assertThat(asked).isEmpty();
  }

  @Test
  void read_deviceNotConnectedOrUnknown_isDeviceOffline() {
    assertThat(code(() -> read("box1"))).isEqualTo(Codes.DEVICE_OFFLINE);
    assertThatThrownBy(() -> read("nobox")).hasMessageContaining("nobox");
  }

  @Test
  void read_fileErrorsOfTheDevice_areFileUnreadable_withTheDevicesSentence() {
    device(
        "box1",
        List.of(Actions.READ_BYTES_CAPABILITY),
        p -> new ErrorBody(Codes.NOT_FOUND, "No such file or directory: /data/f.bin"));

    assertThatThrownBy(() -> read("box1"))
        .hasMessageContaining("No such file or directory: /data/f.bin")
        .hasMessageContaining("box1");
    assertThat(code(() -> read("box1"))).isEqualTo(Web.Codes.FILE_UNREADABLE);
  }

  @Test
  void read_otherErrorsOfTheDevice_keepTheirCode() {
    device(
        "box1",
        List.of(Actions.READ_BYTES_CAPABILITY),
        p -> new ErrorBody(Codes.CANCELLED, "The command was cancelled."));

    assertThat(code(() -> read("box1"))).isEqualTo(Codes.CANCELLED);
  }

  @Test
  void read_sizeChangingBetweenChunks_isFileUnreadable() {
    byte[] first = new byte[Actions.MAX_CHUNK_BYTES + 10];
    byte[] grown = new byte[Actions.MAX_CHUNK_BYTES + 20];
    device(
        "box1",
        List.of(Actions.READ_BYTES_CAPABILITY),
        p -> chunkOf(p.offset() == 0 ? first : grown, p));

    assertThatThrownBy(() -> read("box1")).hasMessageContaining("changed");
    assertThat(code(() -> read("box1"))).isEqualTo(Web.Codes.FILE_UNREADABLE);
  }

  @Test
  void read_fileLargerThanTheLimit_isRefusedAfterTheFirstChunk() {
    device(
        "box1",
        List.of(Actions.READ_BYTES_CAPABILITY),
        p -> new Actions.ReadBytesResult("", Web.MAX_FILE_BYTES + 1, false));

    assertThat(code(() -> read("box1"))).isEqualTo(Web.Codes.FILE_UNREADABLE);
    assertThat(asked).hasSize(1);
  }

  @Test
  void read_deviceClaimingMoreButSendingNothing_isFileUnreadable_notALoop() {
    device(
        "box1",
        List.of(Actions.READ_BYTES_CAPABILITY),
        p -> new Actions.ReadBytesResult("", 10, false));

    assertThat(code(() -> read("box1"))).isEqualTo(Web.Codes.FILE_UNREADABLE);
    assertThat(asked).hasSize(1);
  }
}
