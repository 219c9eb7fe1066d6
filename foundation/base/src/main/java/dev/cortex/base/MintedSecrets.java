package dev.cortex.base;

import java.util.regex.Pattern;

/**
 * The forms Cortex mints its secrets in: a waitpoint's {@code wps_…}, a device's credential {@code
 * cxd_…}, the workbench's sign-in links {@code cxl_…} and browser sessions {@code cxc_…}, each a
 * prefix and base64url characters. A part of one ({@value #MIN_TAIL} or more characters after the
 * prefix, as a cut copy would hold) is taken for a secret too.
 */
public final class MintedSecrets {
  private MintedSecrets() {}

  /** The fewest characters after the prefix that make a secret of the form. */
  public static final int MIN_TAIL = 8;

  /** A minted secret, or a part of one, wherever it stands in a text. */
  public static final Pattern FORM =
      Pattern.compile("(?:wps|cxd|cxl|cxc)_[A-Za-z0-9_-]{" + MIN_TAIL + ",}");

  /** Whether {@code text} holds a minted secret (or a part of one) anywhere. */
  public static boolean in(String text) {
    return text != null && FORM.matcher(text).find();
  }
}
