package dev.cortex.workflows.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.cortex.workflows.manifest.Parameters.Source;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ParametersTest {
  private static final Manifest MANIFEST = manifest();

  private static Manifest manifest() {
    Map<String, ParameterSpec> parameters = new LinkedHashMap<>();
    parameters.put("name", spec(ParameterType.STRING, true, null, null, null));
    parameters.put("count", spec(ParameterType.INTEGER, false, 3, 1.0, 10.0));
    parameters.put("ratio", spec(ParameterType.NUMBER, false, null, 0.0, 1.0));
    parameters.put("dry", spec(ParameterType.BOOLEAN, false, false, null, null));
    parameters.put(
        "mode",
        new ParameterSpec(
            ParameterType.ENUM, false, "fast", null, null, List.of("fast", "thorough"), null));
    parameters.put("dir", spec(ParameterType.PATH, false, null, null, null));
    parameters.put("tags", spec(ParameterType.ARRAY, false, null, null, 2.0));
    parameters.put("extra", spec(ParameterType.OBJECT, false, null, null, null));
    return new Manifest(
        "t",
        "1",
        null,
        parameters,
        null,
        null,
        List.of(new Step("a", StepKind.TRANSFORM, null, null, null, 1, null, null)));
  }

  private static ParameterSpec spec(
      ParameterType type, boolean required, Object defaultValue, Double min, Double max) {
    return new ParameterSpec(type, required, defaultValue, min, max, null, null);
  }

  private static Map<String, Object> resolve(Map<String, ?> given, Source source)
      throws ParameterException {
    return Parameters.resolve(MANIFEST, given, source);
  }

  private static List<String> problems(Map<String, ?> given, Source source) {
    ParameterException e =
        catchThrowableOfType(ParameterException.class, () -> resolve(given, source));
    assertThat(e).as("expected problems").isNotNull();
    return e.problems().stream().map(ParameterProblem::render).toList();
  }

  @Test
  void resolve_onlyRequiredGiven_fillsDefaultsInDeclarationOrder() throws Exception {
    assertThat(resolve(Map.of("name", "x"), Source.JSON))
        .containsExactly(
            Map.entry("name", "x"),
            Map.entry("count", 3),
            Map.entry("dry", false),
            Map.entry("mode", "fast"));
  }

  @Test
  void resolve_jsonValuesOfEveryType_areKept() throws Exception {
    Map<String, Object> given = new LinkedHashMap<>();
    given.put("name", "x");
    given.put("count", 10);
    given.put("ratio", 0.5);
    given.put("dry", true);
    given.put("mode", "thorough");
    given.put("dir", "/tmp");
    given.put("tags", List.of("a", "b"));
    given.put("extra", Map.of("k", 1));
    assertThat(resolve(given, Source.JSON)).isEqualTo(given);
  }

  static Stream<Arguments> jsonMismatches() {
    return Stream.of(
        Arguments.of("count", "123", "expected an integer, got string \"123\""),
        Arguments.of("count", 2.5, "expected an integer, got number 2.5"),
        Arguments.of("ratio", "0.5", "expected a number, got string \"0.5\""),
        Arguments.of("dry", "true", "expected a boolean, got string \"true\""),
        Arguments.of("name", 5, "expected a string, got number 5"),
        Arguments.of("dir", "", "expected a path, got an empty string"),
        Arguments.of("tags", "a,b", "expected an array, got string \"a,b\""),
        Arguments.of("extra", List.of(), "expected an object, got an array"),
        Arguments.of("mode", "slow", "must be one of fast, thorough, got \"slow\""),
        Arguments.of("count", 0, "must be at least 1, got 0"),
        Arguments.of("count", 11, "must be at most 10, got 11"),
        Arguments.of("ratio", 1.5, "must be at most 1, got 1.5"),
        Arguments.of("tags", List.of(1, 2, 3), "must have at most 2 elements, got 3"));
  }

  @ParameterizedTest
  @MethodSource("jsonMismatches")
  void resolve_json_refusesWithoutCoercion(String name, Object value, String message) {
    Map<String, Object> given = new LinkedHashMap<>();
    given.put("name", "x");
    given.put(name, value);
    assertThat(problems(given, Source.JSON))
        .containsExactly("parameter '" + name + "': " + message);
  }

  @Test
  void resolve_cliText_convertsStrictlyPerType() throws Exception {
    Map<String, String> given = new LinkedHashMap<>();
    given.put("name", "x");
    given.put("count", "7");
    given.put("ratio", "0.25");
    given.put("dry", "true");
    given.put("mode", "thorough");
    given.put("dir", "./out");
    given.put("tags", "[\"a\"]");
    given.put("extra", "{\"k\":1}");
    assertThat(resolve(given, Source.CLI))
        .containsExactly(
            Map.entry("name", "x"),
            Map.entry("count", 7L),
            Map.entry("ratio", 0.25),
            Map.entry("dry", true),
            Map.entry("mode", "thorough"),
            Map.entry("dir", "./out"),
            Map.entry("tags", List.of("a")),
            Map.entry("extra", Map.of("k", 1)));
  }

  static Stream<Arguments> cliMismatches() {
    return Stream.of(
        Arguments.of("count", "7.0", "expected an integer, got '7.0'"),
        Arguments.of("count", "07", "expected an integer, got '07'"),
        Arguments.of("count", " 7", "expected an integer, got ' 7'"),
        Arguments.of("ratio", "1e", "expected a number, got '1e'"),
        Arguments.of("ratio", "NaN", "expected a number, got 'NaN'"),
        Arguments.of("dry", "yes", "expected true or false, got 'yes'"),
        Arguments.of("dry", "True", "expected true or false, got 'True'"),
        Arguments.of("tags", "a,b", "expected an array written as JSON, got 'a,b'"),
        Arguments.of("tags", "{}", "expected an array, got an object"),
        Arguments.of("extra", "[1]", "expected an object, got an array"),
        Arguments.of("mode", "slow", "must be one of fast, thorough, got \"slow\""),
        Arguments.of("count", "11", "must be at most 10, got 11"));
  }

  @ParameterizedTest
  @MethodSource("cliMismatches")
  void resolve_cli_refusesLooseText(String name, String text, String message) {
    assertThat(problems(Map.of("name", "x", name, text), Source.CLI))
        .containsExactly("parameter '" + name + "': " + message);
  }

  @Test
  void resolve_cliHugeInteger_keepsPrecision() throws Exception {
    // count has max 10, so use an unbounded manifest
    Manifest manifest =
        new Manifest(
            "t",
            "1",
            null,
            Map.of("n", spec(ParameterType.INTEGER, true, null, null, null)),
            null,
            null,
            MANIFEST.steps());
    assertThat(Parameters.resolve(manifest, Map.of("n", "123456789012345678901234"), Source.CLI))
        .containsEntry("n", new BigInteger("123456789012345678901234"));
  }

  @Test
  void resolve_missingRequiredAndUnknown_reportsAllAtOnce() {
    assertThat(problems(Map.of("colour", "red", "count", "x", "bogus", 1), Source.JSON))
        .containsExactly(
            "parameter 'name': is required (string)",
            "parameter 'count': expected an integer, got string \"x\"",
            "parameter 'bogus': unknown parameter (known: name, count, ratio, dry, mode, dir, tags,"
                + " extra)",
            "parameter 'colour': unknown parameter (known: name, count, ratio, dry, mode, dir, tags,"
                + " extra)");
  }

  @Test
  void resolve_givenValueOverridesDefault() throws Exception {
    assertThat(resolve(Map.of("name", "x", "count", 5), Source.JSON)).containsEntry("count", 5);
  }
}
