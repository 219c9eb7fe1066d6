import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writes the MCP bundle's manifest.json (MCPB manifest 0.3) for tools/release/build, run as a
 * single-file program on the class path of the cortex.jar being packaged, whose Jackson it uses:
 *
 * <pre>
 * java -cp cortex.jar tools/release/BundleManifest.java VERSION SITE LAUNCHER PLATFORM TOOLS OUT
 * </pre>
 *
 * TOOLS is the output of {@code cortex tools list --json} for the default composition; the
 * manifest lists those tools. The person installing the bundle chooses the groups and the Cortex
 * home ({@code user_config}); both reach the server through its environment, where an empty value
 * means the default.
 */
public final class BundleManifest {
  private BundleManifest() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 6) {
      System.err.println(
          "usage: BundleManifest VERSION SITE LAUNCHER PLATFORM TOOLS_JSON OUT");
      System.exit(2);
    }
    String version = args[0];
    String site = args[1];
    String launcher = args[2];
    String platform = args[3];
    JsonMapper json = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();
    JsonNode listed = json.readTree(Files.readString(Path.of(args[4])));

    ObjectNode manifest = json.createObjectNode();
    manifest.put("manifest_version", "0.3");
    manifest.put("name", "cortex");
    manifest.put("display_name", "Cortex");
    manifest.put("version", version);
    manifest.put(
        "description",
        "An evidence ledger and human-approved, traced workflows for accountable agent work.");
    manifest.put(
        "long_description",
        "Cortex gives an agent a local evidence ledger (claims, criteria, evidence, assumptions"
            + " and deterministic reviews) and saved workflows that a person approves before each"
            + " run, with every step traced. It runs on the Java runtime inside this bundle.");
    manifest.putObject("author").put("name", "the Cortex authors").put("url", site);
    manifest.putObject("repository").put("type", "git").put("url", site);
    manifest.put("homepage", site);
    manifest.put("documentation", site + "#readme");
    manifest.put("icon", "icon.png");
    manifest.put("license", "MIT");
    ArrayNode keywords = manifest.putArray("keywords");
    List.of("evidence", "workflows", "consent", "audit", "ledger").forEach(keywords::add);

    ObjectNode server = manifest.putObject("server");
    server.put("type", "binary");
    server.put("entry_point", launcher);
    ObjectNode config = server.putObject("mcp_config");
    config.put("command", "${__dirname}/" + launcher);
    config.putArray("args").add("mcp");
    ObjectNode env = config.putObject("env");
    env.put("CORTEX_MCP_BUNDLES", "${user_config.groups}");
    env.put("CORTEX_HOME", "${user_config.cortex_home}");

    ArrayNode tools = manifest.putArray("tools");
    for (JsonNode tool : listed.path("tools")) {
      tools
          .addObject()
          .put("name", tool.path("name").asString())
          .put("description", firstSentence(tool.path("description").asString("")));
    }
    manifest.put("tools_generated", false);

    ObjectNode userConfig = manifest.putObject("user_config");
    userConfig
        .putObject("groups")
        .put("type", "string")
        .put("title", "Capability groups")
        .put(
            "description",
            "The groups of tools to serve, a comma list: evidence, workflows, core, ext (core and"
                + " ext reach an agent server). Empty: evidence and workflows.")
        .put("default", String.join(",", names(listed.path("groups"))))
        .put("required", false);
    userConfig
        .putObject("cortex_home")
        .put("type", "directory")
        .put("title", "Cortex home")
        .put(
            "description",
            "Where Cortex keeps its ledger, runs and settings (CORTEX_HOME). Empty: the default"
                + " for this system, the one the cortex command uses.")
        .put("default", "")
        .put("required", false);

    manifest.putObject("compatibility").putArray("platforms").add(platform);
    Files.writeString(Path.of(args[5]), json.writeValueAsString(manifest) + "\n");
  }

  private static List<String> names(JsonNode array) {
    return java.util.stream.StreamSupport.stream(array.spliterator(), false)
        .map(JsonNode::asString)
        .toList();
  }

  /** The description's first sentence: hosts show the list in a line per tool. */
  private static String firstSentence(String description) {
    java.util.regex.Matcher end =
        java.util.regex.Pattern.compile("\\.\\s+(?=[A-Z])").matcher(description);
    return end.find() ? description.substring(0, end.start() + 1) : description;
  }
}
