package dev.cortex.protocol.hub;

import java.util.List;

/**
 * The parameters and results of each {@link Action}, as the MCP tools send them through the webhook
 * and the hub to a device, and as the device answers. Limits are enforced by the tools (their input
 * schemas) and again by the device.
 */
public final class Actions {
  private Actions() {}

  /** Shell limits: seconds a foreground command may run. */
  public static final int MIN_TIMEOUT_SECONDS = 1;

  public static final int MAX_TIMEOUT_SECONDS = 600;
  public static final int DEFAULT_TIMEOUT_SECONDS = 120;

  /** The exit code of a command ended at its timeout. */
  public static final int TIMEOUT_EXIT_CODE = 124;

  /** The largest file {@code read} returns (text, image or PDF). */
  public static final long MAX_READ_BYTES = 10L * 1024 * 1024;

  /** Text files larger than this need an explicit {@code limit}. */
  public static final long MAX_TEXT_BYTES_WITHOUT_LIMIT = 256 * 1024;

  /** Lines {@code read} returns when no {@code limit} is given. */
  public static final int DEFAULT_READ_LINES = 2000;

  /** Characters of one line kept by {@code read}; the rest is cut. */
  public static final int MAX_LINE_CHARS = 2000;

  /** Paths {@code glob} returns at most. */
  public static final int MAX_GLOB_RESULTS = 10_000;

  /** Bytes of one AGENTS.md file sent along. */
  public static final int MAX_AGENTS_BYTES = 64 * 1024;

  /**
   * Run a command in a login shell.
   *
   * @param timeoutSeconds 1–600 (foreground only)
   * @param background start it as a job and return at once
   * @param signal a waitpoint the job signals when it ends (background only), or null
   */
  public record Bash(
      String command,
      int timeoutSeconds,
      String description,
      boolean background,
      JobSignal signal) {
    public Bash(String command, int timeoutSeconds, String description, boolean background) {
      this(command, timeoutSeconds, description, background, null);
    }
  }

  /**
   * The waitpoint a background job signals when it ends: ok for exit code 0, fail otherwise, with
   * the exit code and the end of its output. The device writes the signal to its spool, so it
   * reaches the server even when the job ends while the device is offline.
   */
  public record JobSignal(String waitpoint, String secret) {}

  /**
   * The end of a foreground command, or the start of a background job.
   *
   * @param output standard output and error as they were interleaved, possibly cut in the middle
   *     (head and tail kept)
   * @param outputBytes bytes of output in all, kept or not
   * @param truncated whether part of the output was cut
   * @param timedOut the command was ended at its timeout (exit code 124)
   * @param job the background job, when one was started
   */
  public record BashResult(
      int exitCode,
      String output,
      long outputBytes,
      boolean truncated,
      boolean timedOut,
      boolean cancelled,
      long durationMillis,
      String note,
      JobInfo job) {}

  /**
   * Read a file.
   *
   * @param offset the 1-based line to start at
   * @param limit how many lines
   * @param agentsMd whether to send the file's AGENTS.md chain along
   */
  public record Read(String filePath, Integer offset, Integer limit, boolean agentsMd) {}

  /**
   * What was read.
   *
   * @param kind {@code text}, {@code image} or {@code pdf}
   * @param text numbered lines ({@code cat -n} style), for text
   * @param data the file's bytes in base64, for images and PDFs
   */
  public record ReadResult(
      String kind,
      String text,
      int startLine,
      int linesReturned,
      int totalLines,
      boolean linesCut,
      String mimeType,
      String data,
      long sizeBytes,
      List<AgentsFile> agentsMd) {}

  /** The most bytes one {@code read_bytes} returns. */
  public static final int MAX_CHUNK_BYTES = 1024 * 1024;

  /** The largest file {@code read_bytes} reads from, in chunks (the limit of a file sent). */
  public static final long MAX_READ_BYTES_FILE = 100L * 1024 * 1024;

  /** The capability a device names in its hello when it serves {@code read_bytes}. */
  public static final String READ_BYTES_CAPABILITY = "read_bytes";

  /**
   * Read exact bytes of a file, whatever it holds.
   *
   * @param offset the first byte, 0 or more
   * @param length how many bytes, 1 to {@link #MAX_CHUNK_BYTES}
   */
  public record ReadBytes(String filePath, Long offset, Integer length) {}

  /**
   * A chunk of a file.
   *
   * @param data the bytes in base64 (empty at or past the end)
   * @param size the file's whole size in bytes, when the chunk was read
   * @param eof whether this chunk reaches the end of the file
   */
  public record ReadBytesResult(String data, long size, boolean eof) {}

  /** Write a whole file, creating its directories. */
  public record Write(String filePath, String content, boolean agentsMd) {}

  /**
   * What was written.
   *
   * @param lineEndings {@code lf} or {@code crlf}: what the file has now
   */
  public record WriteResult(
      boolean created, long bytes, String lineEndings, List<AgentsFile> agentsMd) {}

  /** Replace {@code oldString} by {@code newString} in a file. */
  public record Edit(
      String filePath, String oldString, String newString, boolean replaceAll, boolean agentsMd) {}

  /** What was replaced. */
  public record EditResult(int replacements, String lineEndings, List<AgentsFile> agentsMd) {}

  /** Find files by glob pattern under {@code path} (default: the device user's home). */
  public record Glob(String pattern, String path) {}

  /** Matching paths, most recently modified first. */
  public record GlobResult(String root, List<String> files, boolean truncated) {}

  /**
   * Search file contents.
   *
   * @param outputMode {@code files_with_matches} (default), {@code content} or {@code count}
   */
  public record Grep(
      String pattern,
      String path,
      String glob,
      String type,
      String outputMode,
      Integer after,
      Integer before,
      Integer context,
      boolean ignoreCase,
      Boolean lineNumbers,
      Integer headLimit,
      Integer offset,
      boolean multiline) {}

  /**
   * What the search found, as text in the mode's format.
   *
   * @param engine {@code ripgrep} or {@code java}
   * @param count files for {@code files_with_matches}, lines for {@code content}, matches for
   *     {@code count}
   */
  public record GrepResult(
      String engine,
      String mode,
      String output,
      int count,
      boolean truncated,
      Integer appliedLimit,
      Integer appliedOffset) {}

  /**
   * Look at background jobs.
   *
   * @param action {@code list}, {@code status}, {@code output} or {@code kill}
   * @param tailBytes for {@code output}: how much of the log's end
   */
  public record Job(String action, String jobId, Integer tailBytes) {}

  /** Background jobs, and for {@code output} the log's end. */
  public record JobResult(List<JobInfo> jobs, String output, boolean outputCut) {}

  /**
   * A background job on a device.
   *
   * @param state {@code running}, {@code exited} or {@code killed}
   * @param exitCode once it ended
   * @param waitpoint the waitpoint it signals when it ends, or null
   */
  public record JobInfo(
      String id,
      String command,
      String description,
      long pid,
      String state,
      Integer exitCode,
      String startedAt,
      String endedAt,
      String logPath,
      long logBytes,
      String waitpoint) {}

  /** An AGENTS.md (or AGENTS.local.md) of a file's ancestor chain. */
  public record AgentsFile(String path, String content, String sha256, boolean cut) {}
}
