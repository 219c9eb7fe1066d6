package dev.cortex.cli.workflows;

import dev.cortex.base.CortexHome;
import dev.cortex.workflows.Workflows;
import dev.cortex.workflows.activity.Activities;
import dev.cortex.workflows.activity.ActivityEnvironment;
import dev.cortex.workflows.run.RunStore;
import dev.cortex.workflows.run.TraceFiles;
import dev.cortex.workflows.temporal.TemporalRuntime;
import dev.cortex.workflows.temporal.TemporalSettings;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLClassLoader;
import java.net.URLConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * The Temporal engine and worker, loaded only when they are used. cortex.jar carries the Temporal
 * runtime (the Temporal module and the SDK) as one resource, {@value #RESOURCE}: nothing of it is
 * read at start-up, and a jar of a third the entries opens faster. The first use writes it to
 * {@code $CORTEX_HOME/tmp/temporal/} (once per build), loads it with a class loader whose parent is
 * the command's, and finds its {@link TemporalRuntime} with {@link ServiceLoader}: the command is
 * compiled against that interface, so a change of its signature breaks the build, not a run. On a
 * development class path, where the runtime is present already, it is found there.
 */
public final class TemporalSupport {
  static final String RESOURCE = "temporal-runtime.jar";
  private static TemporalRuntime runtime;

  private TemporalSupport() {}

  /** Builds the Temporal engine over the shared run index and trace files. */
  public static Workflows.EngineFactory engines(
      TemporalSettings settings, Map<String, String> env, CortexHome home) {
    return (store, traces, activities, environment) ->
        runtime(home).engine(settings, env, store, traces, environment.clock());
  }

  /**
   * Starts a worker on {@code settings}' task queue that records runs in this home; closing it
   * stops it.
   *
   * @throws IllegalStateException when the cluster cannot be reached
   */
  static AutoCloseable worker(
      TemporalSettings settings,
      Map<String, String> env,
      CortexHome home,
      RunStore store,
      TraceFiles traces,
      ActivityEnvironment environment,
      int concurrency,
      int workflowCache) {
    return runtime(home)
        .worker(
            settings,
            env,
            store,
            traces,
            Activities.standard(),
            environment,
            concurrency,
            workflowCache);
  }

  private static synchronized TemporalRuntime runtime(CortexHome home) {
    if (runtime != null) {
      return runtime;
    }
    ClassLoader own = TemporalSupport.class.getClassLoader();
    Optional<TemporalRuntime> present = ServiceLoader.load(TemporalRuntime.class, own).findFirst();
    if (present.isPresent()) {
      runtime = present.get();
      return runtime;
    }
    URL nested = TemporalSupport.class.getResource(RESOURCE);
    if (nested == null) {
      throw new IllegalStateException(
          "this build of cortex has no Temporal runtime (" + RESOURCE + ")");
    }
    try {
      URL jar = extract(nested, home).toUri().toURL();
      ClassLoader loader = new URLClassLoader("cortex-temporal", new URL[] {jar}, own);
      runtime =
          ServiceLoader.load(TemporalRuntime.class, loader)
              .findFirst()
              .orElseThrow(
                  () ->
                      new IllegalStateException(
                          "the Temporal runtime of this build offers no "
                              + TemporalRuntime.class.getSimpleName()));
      return runtime;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot unpack the Temporal runtime", e);
    } catch (java.util.ServiceConfigurationError e) {
      throw new IllegalStateException("the Temporal runtime of this build is broken: " + e, e);
    }
  }

  /**
   * The runtime as a file of its own, {@code
   * $CORTEX_HOME/tmp/temporal/temporal-runtime-CRC-SIZE.jar} (owner-only): written once per build,
   * atomically, and reused by every later process.
   */
  static Path extract(URL nested, CortexHome home) throws IOException {
    URLConnection connection = nested.openConnection();
    String name = "temporal-runtime.jar";
    long size = -1;
    if (connection instanceof JarURLConnection jar) {
      size = jar.getJarEntry().getSize();
      name =
          "temporal-runtime-" + Long.toHexString(jar.getJarEntry().getCrc()) + "-" + size + ".jar";
    }
    Path dir = CortexHome.ensureDirectory(home.root().resolve("tmp").resolve("temporal"));
    Path file = dir.resolve(name);
    if (size >= 0 && Files.isRegularFile(file) && Files.size(file) == size) {
      return file;
    }
    Path part = Files.createTempFile(dir, name, ".part");
    try {
      try (InputStream in = connection.getInputStream();
          OutputStream out = Files.newOutputStream(part)) {
        in.transferTo(out);
      }
      Files.move(part, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(part);
    }
    return file;
  }
}
