package dev.cortex.cli.server;

import dev.cortex.base.CortexHome;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The log of a detached server: standard error goes to a file that is rotated once it passes
 * {@value #MAX_BYTES} bytes (the previous one kept as {@code .1}), so that a server running for
 * months does not fill the disk.
 */
final class ServerLog extends OutputStream {
  static final long MAX_BYTES = 10L * 1024 * 1024;

  private final Path file;
  private OutputStream out;
  private long written;

  private ServerLog(Path file) throws IOException {
    this.file = file;
    CortexHome.ensureDirectory(file.toAbsolutePath().getParent());
    open();
  }

  /** Sends this process's standard error (and so its log) to {@code file}. */
  static void redirect(Path file) {
    try {
      System.setErr(new PrintStream(new ServerLog(file), true, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the server log " + file, e);
    }
  }

  private void open() throws IOException {
    written = Files.exists(file) ? Files.size(file) : 0;
    if (written >= MAX_BYTES) {
      rotate();
    }
    out = new FileOutputStream(file.toFile(), true);
  }

  private void rotate() throws IOException {
    Files.move(
        file, file.resolveSibling(file.getFileName() + ".1"), StandardCopyOption.REPLACE_EXISTING);
    written = 0;
  }

  @Override
  public synchronized void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public synchronized void write(byte[] bytes, int offset, int length) throws IOException {
    if (written + length > MAX_BYTES) {
      out.close();
      rotate();
      out = new FileOutputStream(file.toFile(), true);
    }
    out.write(bytes, offset, length);
    written += length;
  }

  @Override
  public synchronized void flush() throws IOException {
    out.flush();
  }
}
