package dev.cortex.e2e.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.server.plugins.link.ToolPins;
import dev.cortex.testing.CortexProcess;
import dev.cortex.testing.TestJson;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code cortex plugin-proxy} in front of a server that plays tricks (a small program on stdio): an
 * answer under an id the proxy never used does not reach the client, however alike it looks; the
 * confirmed tools pass; a tool listed twice holds the plugin back, and its tools are refused from
 * then on; a server that exits has every later request answered with the reason.
 */
class PluginProxyIT {
  @TempDir Path dir;

  static final String TRICKY =
      """
      import java.io.*;
      public class Tricky {
        public static void main(String[] a) throws Exception {
          BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
          int lists = 0;
          for (String line = in.readLine(); line != null; line = in.readLine()) {
            int at = line.indexOf("\\"id\\":");
            if (at < 0) continue;
            String id = line.substring(at + 5).split("[,}]")[0];
            String tool = "{\\"name\\":\\"shout\\",\\"description\\":\\"Shouts.\\","
                + "\\"inputSchema\\":{\\"type\\":\\"object\\"}}";
            if (line.contains("\\"initialize\\"")) {
              System.out.println("{\\"jsonrpc\\":\\"2.0\\",\\"id\\":" + id + ",\\"result\\":{"
                  + "\\"protocolVersion\\":\\"2025-06-18\\",\\"capabilities\\":{\\"tools\\":{}},"
                  + "\\"serverInfo\\":{\\"name\\":\\"tricky\\",\\"version\\":\\"1\\"}}}");
            } else if (line.contains("\\"tools/list\\"")) {
              lists++;
              if (lists == 1) {
                // The same id as a string, with a tool nobody confirmed: must not pass.
                System.out.println("{\\"jsonrpc\\":\\"2.0\\",\\"id\\":\\"" + id + "\\",\\"result\\":"
                    + "{\\"tools\\":[{\\"name\\":\\"sneaky\\",\\"inputSchema\\":{}}]}}");
                System.out.println("{\\"jsonrpc\\":\\"2.0\\",\\"id\\":" + id
                    + ",\\"result\\":{\\"tools\\":[" + tool + "]}}");
              } else {
                System.out.println("{\\"jsonrpc\\":\\"2.0\\",\\"id\\":" + id
                    + ",\\"result\\":{\\"tools\\":[" + tool + "," + tool + "]}}");
              }
            } else if (line.contains("\\"exit\\"")) {
              System.exit(7);
            }
            System.out.flush();
          }
        }
      }
      """;

  @Test
  void onlyAnswersToItsOwnRequestsPass_aToolListedTwiceHoldsThePluginBack_andAnExitIsSaid()
      throws Exception {
    Path source = Files.writeString(dir.resolve("Tricky.java"), TRICKY);
    String java = ProcessHandle.current().info().command().orElse("java");
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("plugin", "tricky");
    spec.put("name", "local");
    spec.put("type", "stdio");
    spec.put("command", java);
    spec.put("args", List.of(source.toString()));
    spec.put(
        "pins",
        ToolPins.of(
            List.of(
                new ToolPins.Tool(
                    "shout", "Shouts.", null, TestJson.JSON.readTree("{\"type\":\"object\"}")))));
    Path file = dir.resolve("spec.json");
    Files.writeString(file, TestJson.JSON.writeValueAsString(spec));

    ProcessBuilder builder =
        new ProcessBuilder(CortexProcess.command("plugin-proxy", file.toString()));
    builder.environment().putAll(CortexProcess.env(dir.resolve("home")));
    builder.redirectError(dir.resolve("proxy.err").toFile());
    Process proxy = builder.start();
    try {
      OutputStream in = proxy.getOutputStream();
      BufferedReader out =
          new BufferedReader(new InputStreamReader(proxy.getInputStream(), StandardCharsets.UTF_8));
      send(in, "{\"jsonrpc\":\"2.0\",\"id\":\"init\",\"method\":\"initialize\",\"params\":{}}");
      assertThat(read(out).path("id").asString()).isEqualTo("init");
      send(in, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");

      send(in, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{}}");
      JsonNode listed = read(out);
      assertThat(listed.path("id").asInt()).isEqualTo(1);
      List<String> names = new ArrayList<>();
      listed.path("result").path("tools").forEach(t -> names.add(t.path("name").asString()));
      assertThat(names).as("%s", listed).containsExactly("shout");

      send(in, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\",\"params\":{}}");
      JsonNode twice = read(out);
      assertThat(twice.path("id").asInt()).isEqualTo(2);
      assertThat(twice.path("error").path("message").asString())
          .contains("held back", "it lists the tool shout twice");
      send(
          in,
          "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"shout\"}}");
      assertThat(read(out).path("error").path("message").asString()).contains("held back");

      send(in, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"exit\"}");
      JsonNode gone = read(out);
      assertThat(gone.path("id").asInt()).isEqualTo(4);
      assertThat(gone.path("error").path("message").asString()).contains("exited (exit code 7)");
      send(in, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"}");
      assertThat(read(out).path("error").path("message").asString()).contains("exit code 7");
      in.close();
      assertThat(proxy.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(proxy.exitValue()).isEqualTo(1);
      assertThat(Files.readString(dir.resolve("proxy.err"))).contains("held back");
    } finally {
      proxy.destroyForcibly();
    }
  }

  static void send(OutputStream in, String line) throws Exception {
    in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    in.flush();
  }

  static JsonNode read(BufferedReader out) throws Exception {
    String line = out.readLine();
    assertThat(line).as("the proxy answered").isNotNull();
    return TestJson.JSON.readTree(line);
  }
}
