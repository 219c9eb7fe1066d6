package dev.cortex.protocol.session;

import java.util.regex.Pattern;

/**
 * The plugin routes of the session API ({@code /api/plugins/...}), also served to the workbench:
 * the packages of the home with their assignments, what a plugin would add to an environment (an
 * offer: each server's summary and the tools it lists now), and assigning it once a person confirms
 * that offer, or taking it back. Only summaries ever leave the agent server.
 */
public final class Plugins {
  private Plugins() {}

  public static final String PREFIX = "/api/plugins/";
  public static final String LIST = PREFIX + "list";
  public static final String SHOW = PREFIX + "show";
  public static final String OFFER = PREFIX + "offer";
  public static final String ASSIGN = PREFIX + "assign";
  public static final String UNASSIGN = PREFIX + "unassign";

  /** A plugin's id: its folder's name. */
  public static final Pattern ID = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");

  /** A project's name, the environment of its sessions. */
  public static final Pattern PROJECT = Sessions.PROJECT;

  /** The codes these routes answer besides {@code INVALID_ARGUMENT}. */
  public static final class Codes {
    private Codes() {}

    public static final String NOT_FOUND = "NOT_FOUND";
    public static final String PLUGIN_UNUSABLE = "PLUGIN_UNUSABLE";
    public static final String PLUGIN_SERVER_FAILED = "PLUGIN_SERVER_FAILED";

    /** An assign of a plugin that adds servers, without the confirmation of an offer. */
    public static final String CONFIRMATION_NEEDED = "CONFIRMATION_NEEDED";

    /** The confirmation names no current offer: expired, or the package changed since. */
    public static final String CONFIRMATION_STALE = "CONFIRMATION_STALE";
  }

  /** {@link #LIST} takes nothing. */
  public record Nothing() {
    public static final String USAGE = "Send {}.";
  }

  /** A plugin, and for {@link #OFFER} and {@link #UNASSIGN} an environment. */
  public record Ref(String id, String project) {
    public static final String USAGE =
        "Send {\"id\": PLUGIN, \"project\"?: PROJECT (none: sessions without a project)}.";

    public Ref {
      check(id, project, USAGE);
    }
  }

  /** {@link #ASSIGN}: the plugin, the environment, and the confirmation of the offer shown. */
  public record Assign(String id, String project, String confirmation) {
    public static final String USAGE =
        "Send {\"id\": PLUGIN, \"project\"?: PROJECT, \"confirmation\"?: the confirmation of"
            + " the offer a person accepted (needed when the plugin adds MCP servers)}.";

    public Assign {
      check(id, project, USAGE);
      if (confirmation != null && !confirmation.matches("[0-9a-f]{8,64}")) {
        throw new Sessions.BadRequest("confirmation is the one an offer gave.");
      }
    }
  }

  private static void check(String id, String project, String usage) {
    if (id == null) {
      throw new Sessions.BadRequest(usage);
    }
    if (!ID.matcher(id).matches()) {
      throw new Sessions.BadRequest(
          "id is a plugin's folder name: 1-64 lower-case letters, digits, '.', '_' and '-'.");
    }
    if (project != null && !PROJECT.matcher(project).matches()) {
      throw new Sessions.BadRequest(
          "project is a project's name: 1-128 letters, digits and '. _ : / -', starting with a"
              + " letter or digit.");
    }
  }
}
