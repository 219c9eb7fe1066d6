package dev.cortex.server.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HousekeepingTest {
  @Test
  void run_aStepThatFails_doesNotHoldUpTheOthers_andIsTriedAgainAtEveryTick() {
    List<String> ran = new ArrayList<>();
    boolean[] broken = {true};
    Housekeeping housekeeping =
        new Housekeeping(
            List.of(
                new Housekeeping.Step("first", () -> ran.add("first")),
                new Housekeeping.Step(
                    "flaky",
                    () -> {
                      ran.add("flaky");
                      if (broken[0]) {
                        throw new IllegalStateException("cortex.toml is broken");
                      }
                    }),
                new Housekeeping.Step("last", () -> ran.add("last"))));

    housekeeping.run();
    housekeeping.run();
    broken[0] = false;
    housekeeping.run();

    assertThat(ran)
        .containsExactly(
            "first", "flaky", "last", "first", "flaky", "last", "first", "flaky", "last");
  }
}
