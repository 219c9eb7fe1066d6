package dev.cortex.server.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The names the hub answers to, for each way it may listen. */
class HubHostsTest {
  @Test
  void refusal_loopbackHub_takesLoopbackNamesOnAnyPort_asATunnelGivesThem() {
    HubHosts hosts = HubHosts.of("127.0.0.1", List.of());

    assertThat(hosts.refusal("127.0.0.1:3002")).isNull();
    assertThat(hosts.refusal("127.0.0.1:13002")).as("ssh -L 13002:127.0.0.1:3002").isNull();
    assertThat(hosts.refusal("localhost")).isNull();
    assertThat(hosts.refusal("LOCALHOST.:8080")).isNull();
    assertThat(hosts.refusal("[::1]:3002")).isNull();
    assertThat(hosts.refusal("gpu-server:3002"))
        .contains("loopback names only")
        .contains("'gpu-server'")
        .contains("hub_hostnames");
  }

  @Test
  void refusal_hubOnAnotherAddress_withoutHostnames_takesAnyName() {
    for (String bind : List.of("0.0.0.0", "192.0.2.2")) {
      HubHosts hosts = HubHosts.of(bind, List.of());

      assertThat(hosts.refusal("vm:3002")).as(bind).isNull();
      assertThat(hosts.refusal("gpu-server.vpn:3002")).as(bind).isNull();
      assertThat(hosts.refusal("gpu-server")).as(bind).isNull();
      assertThat(hosts.refusal("[fd00::2]:443")).as(bind).isNull();
    }
  }

  @Test
  void refusal_withHostnames_takesThoseAndTheLoopbackNamesOnly() {
    HubHosts hosts = HubHosts.of("0.0.0.0", List.of("gpu-server", "gpu-server.vpn"));

    assertThat(hosts.refusal("gpu-server:443")).isNull();
    assertThat(hosts.refusal("GPU-Server.vpn")).isNull();
    assertThat(hosts.refusal("127.0.0.1:3002")).isNull();
    assertThat(hosts.refusal("192.0.2.2:3002"))
        .isEqualTo(
            "The hub answers to gpu-server, gpu-server.vpn and the loopback names ([server]"
                + " hub_hostnames), not to '192.0.2.2'.");
  }

  @Test
  void refusal_missingOrUnreadableHost_isRefusedWithoutEchoingIt() {
    HubHosts any = HubHosts.of("0.0.0.0", List.of());

    assertThat(any.refusal(null)).contains("a Host header it cannot read");
    assertThat(any.refusal("evil/<script>")).contains("a Host header it cannot read");
    assertThat(any.refusal("[::1")).contains("a Host header it cannot read");
  }

  @Test
  void hostName_takesNamesAndAddresses_refusesSchemesPortsAndPaths() {
    assertThat(HubHosts.hostName("GPU-Server.")).isEqualTo("gpu-server");
    assertThat(HubHosts.hostName("192.0.2.2")).isEqualTo("192.0.2.2");
    assertThat(HubHosts.hostName("[FD00::2]")).isEqualTo("fd00::2");
    assertThat(HubHosts.hostName("build_box")).isEqualTo("build_box");
    for (String bad :
        List.of("wss://gpu-server", "gpu-server:3002", "gpu-server/hub", "*.vpn", "", "a b")) {
      assertThat(HubHosts.hostName(bad)).as(bad).isNull();
    }
  }
}
