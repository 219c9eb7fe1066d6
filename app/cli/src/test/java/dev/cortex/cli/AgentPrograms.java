package dev.cortex.cli;

import dev.cortex.testing.ScriptedAgent;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;

/**
 * Programs for the {@code command} backend that the session tests run, written into one folder: the
 * scripted agent of {@code test-fixtures} (behind a shell script, for the CLI's {@code --program})
 * and small shell programs for what it does not do — take no injected messages, ignore SIGTERM,
 * start a child, show their environment. Each shell program leaves what it saw in files named after
 * the session ({@code CORTEX_SESSION_ID}) beside it.
 */
final class AgentPrograms {
  final Path dir;

  /**
   * Takes no injected messages: reads its turn line, appends it to {@code SESSION.turns}, writes
   * its pid to {@code SESSION.pid}, closes its input, says {@code holding}, and when the prompt
   * says {@code hold:NAME} waits until the file NAME appears beside it (or the server that started
   * it is gone).
   */
  final Path hold;

  /**
   * Does not end by itself: starts a child ({@code sleep}), writes its own pid and the child's to
   * {@code SESSION.pids}, says {@code working} and waits; with {@code ignore-term} in the prompt,
   * both ignore SIGTERM. A prompt with {@code quick} ends at once.
   */
  final Path stubborn;

  /**
   * Names its conversation {@code conv-SESSION}, writes its environment to {@code SESSION.env} and
   * its turn line to {@code SESSION.turn}.
   */
  final Path env;

  /** The scripted agent: {@code exec java ... dev.cortex.testing.ScriptedAgent}. */
  final Path scripted;

  private AgentPrograms(Path dir) {
    this.dir = dir;
    this.hold = dir.resolve("hold.sh");
    this.stubborn = dir.resolve("stubborn.sh");
    this.env = dir.resolve("env.sh");
    this.scripted = dir.resolve("scripted.sh");
  }

  static AgentPrograms write(Path dir) throws IOException {
    AgentPrograms programs = new AgentPrograms(dir);
    script(
        programs.hold,
        """
        IFS= read -r line
        printf '%s\\n' "$line" >> "$dir/$CORTEX_SESSION_ID.turns"
        echo "$$" > "$dir/$CORTEX_SESSION_ID.pid"
        exec 0<&-
        echo '{"type":"text","text":"holding"}'
        case "$line" in
          *hold:*)
            name=${line#*hold:}
            name=${name%%[!A-Za-z0-9_-]*}
            while [ ! -e "$dir/$name" ] && kill -0 "$PPID" 2>/dev/null; do sleep 0.05; done
            ;;
        esac
        echo '{"type":"end","status":"completed","result":"held"}'
        """);
    script(
        programs.stubborn,
        """
        IFS= read -r line
        case "$line" in
          *quick*) echo '{"type":"end","status":"completed","result":"quick"}'; exit 0 ;;
          *ignore-term*) trap '' TERM ;;
        esac
        sleep 3600 &
        echo "$$ $!" > "$dir/$CORTEX_SESSION_ID.pids"
        echo '{"type":"text","text":"working"}'
        wait
        echo '{"type":"end","status":"completed","result":"woke up"}'
        """);
    script(
        programs.env,
        """
        IFS= read -r line
        echo '{"type":"session","id":"conv-'"$CORTEX_SESSION_ID"'"}'
        env > "$dir/$CORTEX_SESSION_ID.env"
        printf '%s\\n' "$line" > "$dir/$CORTEX_SESSION_ID.turn"
        echo '{"type":"end","status":"completed","result":"ok"}'
        """);
    script(
        programs.scripted,
        "exec "
            + ScriptedAgent.command().stream()
                .map(AgentPrograms::quote)
                .collect(Collectors.joining(" "))
            + "\n");
    return programs;
  }

  private static void script(Path file, String body) throws IOException {
    Files.writeString(file, "#!/bin/sh\ndir=$(dirname \"$0\")\n" + body);
    if (!file.toFile().setExecutable(true)) {
      throw new IOException("cannot make " + file + " executable");
    }
  }

  private static String quote(String arg) {
    return "'" + arg.replace("'", "'\\''") + "'";
  }

  /** The command line of {@code program}. */
  static List<String> run(Path program) {
    return List.of(program.toString());
  }

  /** The pids {@code stubborn} wrote for a session: its own, then its child's. */
  long[] pids(String sessionId) throws IOException {
    String[] parts = Files.readString(dir.resolve(sessionId + ".pids")).strip().split(" ");
    return new long[] {Long.parseLong(parts[0]), Long.parseLong(parts[1])};
  }

  /** The pid of the last turn {@code hold} ran for a session. */
  long pid(String sessionId) throws IOException {
    return Long.parseLong(Files.readString(dir.resolve(sessionId + ".pid")).strip());
  }

  /** The turn lines {@code hold} was given for a session, oldest first. */
  List<String> turns(String sessionId) throws IOException {
    Path file = dir.resolve(sessionId + ".turns");
    return Files.exists(file) ? Files.readAllLines(file) : List.of();
  }

  /** The environment {@code env} ran with in a session's last turn. */
  Map<String, String> environment(String sessionId) throws IOException {
    Map<String, String> env = new HashMap<>();
    for (String line : Files.readAllLines(dir.resolve(sessionId + ".env"))) {
      int eq = line.indexOf('=');
      if (eq > 0) {
        env.put(line.substring(0, eq), line.substring(eq + 1));
      }
    }
    return env;
  }

  /** The turn line {@code env} was given in a session's last turn. */
  JsonNode turn(String sessionId) throws IOException {
    return ToolContract.JSON.readTree(Files.readString(dir.resolve(sessionId + ".turn")));
  }

  /** Lets a holding turn go on: creates the file it waits for. */
  void release(String name) throws IOException {
    Files.writeString(dir.resolve(name), "");
  }

  /** Whether {@code pid} runs: it exists and is no zombie (an orphan's reaper may be slow). */
  static boolean alive(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
    } catch (IOException e) {
      return false;
    }
  }
}
