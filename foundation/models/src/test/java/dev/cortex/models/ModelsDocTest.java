package dev.cortex.models;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.base.settings.CortexToml;
import dev.cortex.testing.Checkout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The examples of docs/models.md are settings Cortex reads as the page says. */
class ModelsDocTest {
  private static final Pattern TOML = Pattern.compile("```toml\n(.*?)```", Pattern.DOTALL);

  @TempDir Path config;

  @Test
  void tomlExamples_togetherAreOneValidCatalog() throws Exception {
    String page = Files.readString(Checkout.path("docs/models.md"));
    List<String> examples = new ArrayList<>();
    Matcher block = TOML.matcher(page);
    while (block.find()) {
      examples.add(block.group(1));
    }
    assertThat(examples).hasSize(2);
    Files.writeString(config.resolve(CortexToml.FILE), String.join("\n", examples));

    ModelCatalog catalog =
        ModelCatalog.of(CortexToml.load(config, Map.of(), ModelCatalog.TABLES), Map.of());

    assertThat(catalog.provider("ollama").keyVariable()).isNull();
    assertThat(catalog.provider("groq").keyVariable()).isEqualTo("GROQ_API_KEY");
    assertThat(catalog.model("llama3.1").orElseThrow().apiName()).isEqualTo("llama3.1:8b");
    assertThat(catalog.model("claude-sonnet-4-5").orElseThrow().fallbacks())
        .containsExactly("gpt-4.1");
    assertThat(catalog.defaultModel()).isEqualTo(ModelCatalog.DEFAULT_MODEL);
    for (ModelSpec model : ModelCatalog.builtIn().models()) {
      assertThat(page).as(model.name()).contains("`" + model.name() + "`");
    }
  }
}
