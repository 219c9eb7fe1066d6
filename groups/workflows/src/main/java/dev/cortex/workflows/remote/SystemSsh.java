package dev.cortex.workflows.remote;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.eclipse.jgit.errors.TransportException;
import org.eclipse.jgit.transport.CredentialsProvider;
import org.eclipse.jgit.transport.RemoteSession;
import org.eclipse.jgit.transport.SshSessionFactory;
import org.eclipse.jgit.transport.URIish;
import org.eclipse.jgit.util.FS;

/**
 * SSH for JGit through the system's {@code ssh} program, so that a fetch uses the person's own
 * keys, agent and {@code ~/.ssh/config}. {@code BatchMode} makes it fail rather than wait for a
 * password nobody can type. Each {@code ssh} is started by Cortex's process runner, in a group of
 * its own that ends with the JVM.
 */
final class SystemSsh extends SshSessionFactory {
  private static final Pattern HOST = Pattern.compile("[A-Za-z0-9][A-Za-z0-9.-]*");
  private static final Pattern USER = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]*");

  private final Map<String, String> environment;

  /** SSH with this process's environment (its PATH finds {@code ssh}). */
  SystemSsh() {
    this(System.getenv());
  }

  /** SSH started with {@code environment}. */
  SystemSsh(Map<String, String> environment) {
    this.environment = Map.copyOf(environment);
  }

  @Override
  public RemoteSession getSession(
      URIish uri, CredentialsProvider credentials, FS fs, int timeoutSeconds)
      throws TransportException {
    List<String> prefix = command(uri, timeoutSeconds);
    return new RemoteSession() {
      @Override
      public Process exec(String command, int timeout) throws IOException {
        List<String> argv = new ArrayList<>(prefix);
        argv.add(command);
        return StreamedProcess.start(argv, environment);
      }

      @Override
      public void disconnect() {
        // each exec is its own ssh process
      }
    };
  }

  /** The ssh command line up to the remote command. */
  static List<String> command(URIish uri, int timeoutSeconds) throws TransportException {
    String host = uri.getHost();
    String user = uri.getUser();
    if (host == null || !HOST.matcher(host).matches()) {
      throw new TransportException(uri, "not a host name");
    }
    if (user != null && !USER.matcher(user).matches()) {
      throw new TransportException(uri, "not a user name");
    }
    List<String> argv = new ArrayList<>(List.of("ssh", "-x", "-o", "BatchMode=yes"));
    if (timeoutSeconds > 0) {
      argv.addAll(List.of("-o", "ConnectTimeout=" + timeoutSeconds));
    }
    if (uri.getPort() > 0) {
      argv.addAll(List.of("-p", String.valueOf(uri.getPort())));
    }
    argv.add("--");
    argv.add(user == null ? host : user + "@" + host);
    return argv;
  }

  @Override
  public String getType() {
    return "system-ssh";
  }
}
