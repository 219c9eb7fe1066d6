package dev.cortex.process;

import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * A JVM that starts {@code sh -c 'sleep 300 & echo $!; wait'} through {@link Processes}, prints the
 * background sleep's pid once the shell has reported it and then, as its argument says, exits
 * ({@code exit}) or waits to be killed ({@code hang}).
 */
public final class ChildJvm {
  private ChildJvm() {}

  public static void main(String[] args) throws Exception {
    CountDownLatch reported = new CountDownLatch(1);
    StringBuilder line = new StringBuilder();
    RunningProcess shell =
        Processes.start(
            ProcessSpec.builder(List.of("sh", "-c", "sleep 300 & echo $!; wait"), Os.env()).build(),
            (stream, bytes, offset, length) -> {
              line.append(
                  new String(bytes, offset, length, java.nio.charset.StandardCharsets.UTF_8));
              if (line.indexOf("\n") >= 0) {
                reported.countDown();
              }
            });
    reported.await();
    System.out.println("pid " + line.toString().strip());
    System.out.println(args[0].equals("exit") ? "exiting" : "hanging");
    System.out.flush();
    if (args[0].equals("exit")) {
      System.exit(0);
    }
    shell.await();
  }
}
