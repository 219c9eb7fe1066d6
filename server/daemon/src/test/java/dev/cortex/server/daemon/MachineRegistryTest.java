package dev.cortex.server.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.base.CortexHome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** machines.json as the hub reads it: at once after an edit when a device is looked up. */
class MachineRegistryTest {
  @TempDir Path dir;

  @Test
  void find_deviceJustAdded_isFoundAtOnce_andTheHubIsToldOfTheReload() throws Exception {
    Path file = Files.writeString(dir.resolve("machines.json"), "{\"machines\": {\"box1\": {}}}");
    MachineRegistry registry = new MachineRegistry(file);
    AtomicInteger reloads = new AtomicInteger();
    registry.onReload(reloads::incrementAndGet);

    // As 'cortex server enroll' writes it: a new file renamed over the old one.
    CortexHome.writeAtomically(file, "{\"machines\": {\"box1\": {}, \"new\": {}}}");

    assertThat(registry.find("new")).isNotNull();
    assertThat(reloads).hasValue(1);
    assertThat(registry.find("nobody")).as("an unchanged file is not read again").isNull();
    assertThat(reloads).hasValue(1);
  }

  @Test
  void find_afterAnInvalidEdit_keepsTheLastGoodRegistry() throws Exception {
    Path file = Files.writeString(dir.resolve("machines.json"), "{\"machines\": {\"box1\": {}}}");
    MachineRegistry registry = new MachineRegistry(file);

    Files.writeString(file, "{\"machines\": {\"box2\": {\"colour\": 1}}}");

    assertThat(registry.find("box2")).isNull();
    assertThat(registry.find("box1")).isNotNull();
  }
}
