package dev.cortex.storage;

/**
 * Another connection (usually another {@code cortex} process) held the database's write lock for
 * longer than the busy timeout. Worth retrying later; callers report it as {@code UNAVAILABLE}.
 */
public final class StorageBusyException extends StorageException {
  StorageBusyException(String message, Throwable cause) {
    super(message, cause);
  }
}
