package dev.cortex.cli.workflows;

import dev.cortex.base.CortexHome;
import dev.cortex.base.Json;
import dev.cortex.cli.CortexCommand;
import dev.cortex.cli.Io;
import dev.cortex.mcp.tool.ToolException;
import dev.cortex.workflows.Sources;
import dev.cortex.workflows.Workflows;
import dev.cortex.workflows.manifest.Manifest;
import dev.cortex.workflows.manifest.ManifestException;
import dev.cortex.workflows.manifest.ManifestLoader;
import dev.cortex.workflows.tools.WorkflowErrors;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.core.type.TypeReference;

/**
 * {@code cortex workflows}: the local workflow library, {@code save FILE} and {@code list}. Only a
 * person saves workflows: no MCP tool does.
 */
@Command(
    name = "workflows",
    mixinStandardHelpOptions = true,
    description = "The local workflow library (human-only: no MCP tool saves workflows).")
public final class LibraryCommand implements Callable<Integer> {
  private final Io io;

  public LibraryCommand(Io io) {
    this.io = io;
  }

  @Override
  public Integer call() {
    return CortexCommand.usage(io, "cortex workflows: say 'save FILE' or 'list'.");
  }

  @Command(
      name = "save",
      mixinStandardHelpOptions = true,
      description = "Validate a manifest and save it to the local library under its name.")
  public static final class Save implements Callable<Integer> {
    private final Io io;

    @Parameters(index = "0", paramLabel = "FILE", description = "The manifest to save.")
    Path file;

    @Option(names = "--force", description = "Replace a saved workflow of the same name.")
    boolean force;

    public Save(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() throws Exception {
      return WorkflowVerb.guarded(io, this::save);
    }

    private int save() throws IOException {
      String text;
      try {
        text = Files.readString(file, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw ToolException.invalidReference("cannot read " + file);
      }
      Manifest manifest = parse(text);
      Path target = new Sources(io.home(), Path.of("")).libraryFile(manifest.name());
      if (Files.exists(target)
          && !force
          && !Files.readString(target, StandardCharsets.UTF_8).equals(text)) {
        throw ToolException.invalidArgument(
            "a different workflow '"
                + manifest.name()
                + "' is already saved; use --force to replace it");
      }
      CortexHome.writeAtomically(target, text);
      io.out().println("saved " + manifest.name() + " " + manifest.version() + " to the library");
      return CortexCommand.OK;
    }

    /** The manifest in {@code text}, whose name must be able to name a library file. */
    private Manifest parse(String text) {
      Manifest manifest;
      try {
        manifest = ManifestLoader.parse(file.toString(), text);
      } catch (ManifestException e) {
        throw new ToolException(
            WorkflowErrors.INVALID_MANIFEST, file + " has problems:\n" + e.getMessage());
      }
      if (!Sources.LIBRARY_NAME.matcher(manifest.name()).matches()) {
        throw ToolException.invalidArgument(
            "the workflow's name '"
                + manifest.name()
                + "' cannot name a library file: use letters, digits, '.', '_' and '-'");
      }
      return manifest;
    }
  }

  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = "List the workflows saved in the local library.")
  public static final class ListWorkflows implements Callable<Integer> {
    private static final TypeReference<Map<String, Object>> ROW = new TypeReference<>() {};

    private final Io io;
    @Mixin WorkflowVerb.Answer answer = new WorkflowVerb.Answer();

    public ListWorkflows(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() throws Exception {
      return WorkflowVerb.run(
          io,
          workflows -> {
            List<Map<String, Object>> rows = rows(workflows);
            if (answer.json) {
              WorkflowVerb.print(io, Map.of("workflows", rows));
            } else if (rows.isEmpty()) {
              io.out()
                  .println(
                      "The library is empty. Save a manifest with: cortex workflows save FILE");
            } else {
              for (Map<String, Object> row : rows) {
                io.out()
                    .printf(
                        "%-32s %-10s %s%n",
                        row.get("name"),
                        row.getOrDefault("version", "?"),
                        row.getOrDefault("description", row.getOrDefault("problem", "")));
              }
            }
            return CortexCommand.OK;
          });
    }

    /** A row per saved workflow: what {@code show} says of it, or its first problem. */
    private List<Map<String, Object>> rows(Workflows workflows) {
      List<Map<String, Object>> rows = new ArrayList<>();
      for (String name : new Sources(io.home(), Path.of("")).names()) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("name", name);
        try {
          Map<String, Object> shown = workflows.show(name);
          row.putAll(Json.mapper().convertValue(shown.get("workflow"), ROW));
          row.put("name", name);
        } catch (ToolException e) {
          row.put("problem", e.getMessage().lines().findFirst().orElse(""));
        }
        rows.add(row);
      }
      return rows;
    }
  }
}
