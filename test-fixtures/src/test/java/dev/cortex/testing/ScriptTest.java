package dev.cortex.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The scripted agent's script language, read from prompts. */
class ScriptTest {
  @Test
  void parse_plainText_isSaidBackWithTheDefaultCost() throws Exception {
    Script script = Script.parse("  what time is it?", "m-1");

    assertThat(script.say()).containsExactly("  what time is it?");
    assertThat(script.calls()).isEmpty();
    assertThat(script.cost()).isEqualTo(new Script.Cost("m-1", 0, 0, 0, 0, 0.0, "api"));
    assertThat(script.fail()).isNull();
  }

  @Test
  void parse_fullScript_readsEveryKey() throws Exception {
    Script script =
        Script.parse(
            "{\"session\":\"conv\",\"malformed\":true,\"say\":\"a\",\"list_tools\":true,"
                + "\"calls\":[{\"tool\":\"t\"},{\"server\":\"s\",\"tool\":\"u\",\"arguments\":{\"n\":1}}],"
                + "\"sleep_ms\":5,\"await_inject\":2,\"await_timeout_ms\":9,\"echo_injected\":true,"
                + "\"exit_without_end\":false,\"cost\":{\"usd\":null,\"output_tokens\":7},"
                + "\"fail\":\"no\"}",
            null);

    assertThat(script)
        .isEqualTo(
            new Script(
                true,
                List.of("a"),
                true,
                List.of(
                    new Script.Call(null, "t", Map.of()),
                    new Script.Call("s", "u", Map.of("n", 1))),
                5,
                2,
                9,
                true,
                false,
                new Script.Cost("scripted", 0, 7, 0, 0, null, "api"),
                "no",
                "conv"));
  }

  @Test
  void parse_costFalse_printsNoCost() throws Exception {
    assertThat(Script.parse("{\"cost\":false}", null).cost()).isNull();
  }

  @Test
  void parse_wrongKinds_nameTheKeyAndTheValue() {
    assertBad("{\"say\":3}", "say must be a string or an array of strings, got 3");
    assertBad("{\"calls\":{}}", "calls must be an array of calls, got {}");
    assertBad(
        "{\"calls\":[{\"server\":\"s\"}]}",
        "each call needs a tool (a string), got {\"server\":\"s\"}");
    assertBad(
        "{\"calls\":[{\"tool\":\"t\",\"args\":{}}]}",
        "a call has the unknown key 'args'; known keys: arguments, server, tool");
    assertBad("{\"sleep_ms\":-1}", "sleep_ms must be a whole number of at least 0, got -1");
    assertBad("{\"echo_injected\":\"yes\"}", "echo_injected must be true or false, got \"yes\"");
    assertBad("{\"cost\":{\"mode\":\"free\"}}", "cost.mode must be api or plan, got \"free\"");
    assertBad("{\"say\":\"x\"", "the prompt starts with { but is not a JSON object");
  }

  private static void assertBad(String prompt, String message) {
    assertThatThrownBy(() -> Script.parse(prompt, null))
        .isInstanceOf(Script.BadScript.class)
        .hasMessage(message);
  }
}
