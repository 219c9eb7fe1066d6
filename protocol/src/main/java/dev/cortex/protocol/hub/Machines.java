package dev.cortex.protocol.hub;

import dev.cortex.protocol.WireJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * The registry of remote devices, {@code $CORTEX_HOME/machines.json}: only devices named there may
 * connect to the hub, and the remote tools list them in their description.
 *
 * <pre>
 * {
 *   "machines": {
 *     "gpu-box": {"platform": "linux", "description": "Training box, 2 GPUs"},
 *     "laptop": {"platform": "windows"}
 *   }
 * }
 * </pre>
 */
public record Machines(Map<String, Machine> machines) {
  /** The file name in the Cortex home. */
  public static final String FILE = "machines.json";

  /** What a device name may look like. */
  public static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

  private static final Set<String> PLATFORMS = Set.of("linux", "macos", "windows", "other");
  private static final Set<String> ENTRY_KEYS = Set.of("platform", "description", "enabled");
  private static final int MAX_DESCRIPTION = 500;

  /** No devices. */
  public static final Machines NONE = new Machines(Map.of());

  public Machines {
    machines = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(machines));
  }

  /**
   * One registered device.
   *
   * @param platform {@code linux}, {@code macos}, {@code windows}, {@code other}, or null when not
   *     declared (the device reports it when it connects)
   */
  public record Machine(String name, String platform, String description, boolean enabled) {
    public boolean windows() {
      return "windows".equals(platform);
    }
  }

  /** The enabled device called {@code name}, or null. */
  public Machine get(String name) {
    Machine machine = machines.get(name);
    return machine != null && machine.enabled() ? machine : null;
  }

  /** The enabled devices, in the file's order. */
  public List<Machine> enabled() {
    return machines.values().stream().filter(Machine::enabled).toList();
  }

  /**
   * Reads the registry; a missing file is an empty registry.
   *
   * @throws IllegalArgumentException naming the file and what is wrong in it
   */
  public static Machines read(Path file) {
    if (!Files.exists(file)) {
      return NONE;
    }
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalArgumentException(FILE + " cannot be read: " + e.getMessage());
    }
    return parse(text);
  }

  /**
   * Parses the registry's text.
   *
   * @throws IllegalArgumentException saying what is wrong, with the JSON path
   */
  public static Machines parse(String text) {
    JsonNode root;
    try {
      root = WireJson.mapper().readTree(text);
    } catch (JacksonException e) {
      throw new IllegalArgumentException(FILE + " is not valid JSON: " + e.getOriginalMessage());
    }
    List<String> problems = new ArrayList<>();
    Map<String, Machine> machines = new LinkedHashMap<>();
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException(FILE + " must hold a JSON object {\"machines\": {...}}");
    }
    for (String key : root.propertyNames()) {
      if (!key.equals("machines") && !key.equals("$schema")) {
        problems.add("unknown key '" + key + "' (expected \"machines\")");
      }
    }
    JsonNode entries = root.path("machines");
    if (!entries.isMissingNode() && !entries.isObject()) {
      problems.add("machines must be an object of device name to settings");
    } else if (entries.isObject()) {
      for (Map.Entry<String, JsonNode> entry : entries.properties()) {
        Machine machine = machine(entry.getKey(), entry.getValue(), problems);
        if (machine != null) {
          machines.put(machine.name(), machine);
        }
      }
    }
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(FILE + ": " + String.join("; ", problems));
    }
    return new Machines(machines);
  }

  private static Machine machine(String name, JsonNode entry, List<String> problems) {
    String where = "machines." + name;
    int before = problems.size();
    if (!NAME.matcher(name).matches()) {
      problems.add(
          where
              + ": a device name is 1-64 letters, digits, '.', '_' or '-', starting with a"
              + " letter or digit");
    }
    if (!entry.isObject()) {
      problems.add(where + " must be an object, e.g. {\"platform\": \"linux\"}");
      return null;
    }
    for (String key : entry.propertyNames()) {
      if (!ENTRY_KEYS.contains(key)) {
        problems.add(where + ": unknown key '" + key + "' (known: description, enabled, platform)");
      }
    }
    String platform = null;
    JsonNode platformNode = entry.path("platform");
    if (!platformNode.isMissingNode()) {
      if (!platformNode.isString() || !PLATFORMS.contains(platformNode.asString())) {
        problems.add(where + ".platform must be one of linux, macos, windows, other");
      } else {
        platform = platformNode.asString();
      }
    }
    String description = null;
    JsonNode descriptionNode = entry.path("description");
    if (!descriptionNode.isMissingNode()) {
      if (!descriptionNode.isString() || descriptionNode.asString().length() > MAX_DESCRIPTION) {
        problems.add(where + ".description must be a string of at most " + MAX_DESCRIPTION);
      } else {
        description = descriptionNode.asString().strip();
      }
    }
    boolean enabled = true;
    JsonNode enabledNode = entry.path("enabled");
    if (!enabledNode.isMissingNode()) {
      if (!enabledNode.isBoolean()) {
        problems.add(where + ".enabled must be true or false");
      } else {
        enabled = enabledNode.asBoolean();
      }
    }
    return problems.size() == before ? new Machine(name, platform, description, enabled) : null;
  }

  /** The registry as JSON text, with {@code machine} added or replaced. */
  public String with(Machine machine) {
    Map<String, Object> entries = new LinkedHashMap<>();
    machines.forEach((name, m) -> entries.put(name, entry(m)));
    entries.put(machine.name(), entry(machine));
    return WireJson.mapper()
            .writerWithDefaultPrettyPrinter()
            .writeValueAsString(Map.of("machines", entries))
        + "\n";
  }

  private static Map<String, Object> entry(Machine machine) {
    Map<String, Object> entry = new LinkedHashMap<>();
    if (machine.platform() != null) {
      entry.put("platform", machine.platform());
    }
    if (machine.description() != null) {
      entry.put("description", machine.description());
    }
    if (!machine.enabled()) {
      entry.put("enabled", false);
    }
    return entry;
  }
}
