package dev.cortex.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a run remembers of its descendants, over tables of processes written out here: a process is
 * told by its pid and its start, so a pid another process took over is not the run's.
 */
class LineageTest {
  static final long LEADER = 100;

  static ProcessTable.Entry process(long pid, long parent, long start) {
    return new ProcessTable.Entry(pid, 'S', parent, pid, pid, start);
  }

  static Map<Long, ProcessTable.Entry> table(ProcessTable.Entry... entries) {
    Map<Long, ProcessTable.Entry> table = new HashMap<>();
    for (ProcessTable.Entry entry : entries) {
      table.put(entry.pid(), entry);
    }
    return table;
  }

  /** A run whose leader started child 200, which started grandchild 300. */
  static Lineage lineage() {
    Lineage lineage = new Lineage(LEADER);
    Map<Long, ProcessTable.Entry> seen =
        table(process(LEADER, 1, 10), process(200, LEADER, 20), process(300, 200, 30));
    lineage.look(List.of(), seen);
    assertThat(lineage.members()).containsExactlyInAnyOrder(200L, 300L);
    return lineage;
  }

  /** Regression: the children of a process that took over a member's pid were the run's, too. */
  @Test
  void look_aChildOfAProcessThatTookOverAMembersPid_isNotRemembered() {
    Lineage lineage = lineage();
    ProcessTable.Entry stranger = process(200, 1, 90);
    ProcessTable.Entry strangersChild = process(400, 200, 95);

    lineage.look(
        List.of(stranger, strangersChild),
        table(process(LEADER, 1, 10), stranger, process(300, 200, 30), strangersChild));

    assertThat(lineage.members()).containsExactly(300L);
  }

  @Test
  void look_aMemberThatEnded_isForgotten() {
    Lineage lineage = lineage();

    lineage.look(List.of(), table(process(LEADER, 1, 10), process(300, 1, 30)));

    assertThat(lineage.members()).containsExactly(300L);
  }

  @Test
  void look_aChildOfARememberedMember_isRemembered() {
    Lineage lineage = lineage();
    ProcessTable.Entry late = process(500, 300, 40);

    lineage.look(
        List.of(late),
        table(process(LEADER, 1, 10), process(200, LEADER, 20), process(300, 1, 30), late));

    assertThat(lineage.members()).containsExactlyInAnyOrder(200L, 300L, 500L);
  }

  /** Regression: once the leader had ended, the children of a process with its pid were strays. */
  @Test
  void lineage_ofARunWhoseLeaderEnded_leavesOutTheChildrenOfItsPid() {
    Lineage lineage = lineage();
    Map<Long, ProcessTable.Entry> ended =
        table(
            process(LEADER, 1, 70),
            process(600, LEADER, 75),
            process(300, 1, 30),
            process(301, 300, 35));
    Map<Long, ProcessTable.Entry> running =
        table(process(LEADER, 1, 10), process(600, LEADER, 75), process(300, 1, 30));

    assertThat(lineage.lineage(false, ended)).containsExactlyInAnyOrder(300L, 301L);
    assertThat(lineage.lineage(true, running)).containsExactlyInAnyOrder(LEADER, 600L, 300L);
  }
}
