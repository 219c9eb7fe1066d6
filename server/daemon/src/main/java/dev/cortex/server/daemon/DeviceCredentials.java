package dev.cortex.server.daemon;

import dev.cortex.base.Hashes;
import dev.cortex.storage.Area;
import dev.cortex.storage.Database;
import dev.cortex.storage.Migration;
import dev.cortex.storage.Sql;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Per-device credentials, in the {@code devices} area of the home's database. A person runs {@code
 * cortex server enroll NAME}, which stores the hash of a one-time code; the device exchanges the
 * code once for a credential of its own (only its hash is kept), which authorises that device name
 * and no other until {@code cortex server revoke NAME}. Only hashes are stored: a copy of the
 * database lets no one connect.
 */
public final class DeviceCredentials {
  private static final String CODE_ALPHABET = "ABCDEFGHJKMNPQRSTVWXYZ23456789";
  private static final SecureRandom RANDOM = new SecureRandom();

  private final Supplier<Database> database;
  private final Clock clock;

  public DeviceCredentials(Supplier<Database> database, Clock clock) {
    this.database = Objects.requireNonNull(database, "database");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** The area's tables and migrations. */
  public static Area area() {
    return Area.of(
        "devices",
        Migration.sql(
            1,
            """
            CREATE TABLE device_credentials (
              device TEXT PRIMARY KEY,
              secret_sha256 TEXT NOT NULL,
              created_at TEXT NOT NULL,
              revoked_at TEXT
            );
            CREATE TABLE device_enrolments (
              code_sha256 TEXT PRIMARY KEY,
              device TEXT NOT NULL,
              created_at TEXT NOT NULL,
              expires_at TEXT NOT NULL,
              used_at TEXT
            );
            CREATE INDEX device_enrolments_by_device ON device_enrolments (device);
            """));
  }

  /** A new enrolment: the code to give the device, once, and when it stops working. */
  public record Enrolment(String device, String code, Instant expiresAt) {}

  /** Issues a one-time enrolment code for {@code device}, valid for {@code validFor}. */
  public Enrolment enrol(String device, Duration validFor) {
    String code = code();
    Instant now = clock.instant();
    Instant expires = now.plus(validFor);
    database
        .get()
        .write(
            c -> {
              Sql.update(
                  c,
                  "DELETE FROM device_enrolments WHERE expires_at < ? OR used_at IS NOT NULL",
                  now);
              return Sql.update(
                  c,
                  """
                  INSERT INTO device_enrolments (code_sha256, device, created_at, expires_at)
                  VALUES (?, ?, ?, ?)
                  """,
                  sha256(normalise(code)),
                  device,
                  now,
                  expires);
            });
    return new Enrolment(device, code, expires);
  }

  /**
   * Exchanges an enrolment code for a new credential of {@code device}, replacing any earlier one.
   *
   * @return the credential, or null when the code is unknown, used, expired or for another device
   */
  public String exchange(String device, String code) {
    String credential = "cxd_" + random(32);
    Instant now = clock.instant();
    boolean done =
        database
            .get()
            .write(
                c -> {
                  int used =
                      Sql.update(
                          c,
                          """
                          UPDATE device_enrolments SET used_at = ?
                          WHERE code_sha256 = ? AND device = ? AND used_at IS NULL
                            AND expires_at >= ?
                          """,
                          now,
                          sha256(normalise(code)),
                          device,
                          now);
                  if (used != 1) {
                    return false;
                  }
                  Sql.update(
                      c,
                      """
                      INSERT INTO device_credentials (device, secret_sha256, created_at)
                      VALUES (?, ?, ?)
                      ON CONFLICT (device) DO UPDATE SET
                        secret_sha256 = excluded.secret_sha256,
                        created_at = excluded.created_at,
                        revoked_at = NULL
                      """,
                      device,
                      sha256(credential),
                      now);
                  return true;
                });
    return done ? credential : null;
  }

  /** Whether {@code credential} is the current, unrevoked credential of {@code device}. */
  public boolean verify(String device, String credential) {
    String stored =
        database
            .get()
            .read(
                c ->
                    Sql.one(
                        c,
                        "SELECT secret_sha256 FROM device_credentials"
                            + " WHERE device = ? AND revoked_at IS NULL",
                        rs -> rs.getString(1),
                        device));
    return stored != null
        && MessageDigest.isEqual(
            stored.getBytes(StandardCharsets.US_ASCII),
            sha256(credential).getBytes(StandardCharsets.US_ASCII));
  }

  /**
   * Revokes {@code device}'s credential and any unused enrolment code of it.
   *
   * @return whether there was anything to revoke
   */
  public boolean revoke(String device) {
    Instant now = clock.instant();
    return database
        .get()
        .write(
            c -> {
              int credentials =
                  Sql.update(
                      c,
                      "UPDATE device_credentials SET revoked_at = ?"
                          + " WHERE device = ? AND revoked_at IS NULL",
                      now,
                      device);
              int codes =
                  Sql.update(
                      c,
                      "DELETE FROM device_enrolments WHERE device = ? AND used_at IS NULL",
                      device);
              return credentials + codes > 0;
            });
  }

  /** Devices with a current credential, by name. */
  public List<String> enrolled() {
    return database
        .get()
        .read(
            c ->
                Sql.query(
                    c,
                    "SELECT device FROM device_credentials WHERE revoked_at IS NULL ORDER BY device",
                    rs -> rs.getString(1)));
  }

  /** A code such as {@code K7QX-M2PA-9TNE-H4RW}: 80 bits, easy to read and type. */
  private static String code() {
    StringBuilder code = new StringBuilder();
    for (int i = 0; i < 16; i++) {
      if (i > 0 && i % 4 == 0) {
        code.append('-');
      }
      code.append(CODE_ALPHABET.charAt(RANDOM.nextInt(CODE_ALPHABET.length())));
    }
    return code.toString();
  }

  /** Codes are compared without dashes, spaces or case. */
  static String normalise(String code) {
    return code.replaceAll("[\\s-]", "").toUpperCase(java.util.Locale.ROOT);
  }

  private static String random(int bytes) {
    byte[] value = new byte[bytes];
    RANDOM.nextBytes(value);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(value);
  }

  static String sha256(String text) {
    return Hashes.sha256(text);
  }
}
