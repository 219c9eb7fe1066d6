package dev.cortex.workflows.activity;

import static dev.cortex.workflows.activity.ActivityTestInputs.environment;
import static dev.cortex.workflows.activity.ActivityTestInputs.failure;
import static dev.cortex.workflows.activity.ActivityTestInputs.manifest;
import static dev.cortex.workflows.activity.ActivityTestInputs.step;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.base.Json;
import dev.cortex.workflows.manifest.Step;
import dev.cortex.workflows.manifest.StepKind;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

class SqlActivityTest {
  private final SqlActivity sql = new SqlActivity();

  @TempDir Path home;
  private String url;

  @BeforeEach
  void createDatabase() throws Exception {
    url = "jdbc:sqlite:" + home.resolve("test.db");
    run(
        """
        create table item (
          id integer primary key, name text, price real, data blob, done boolean, due date)""");
  }

  private ActivityInput input(String statement, Object... params) {
    return input(Duration.ofSeconds(30), statement, params);
  }

  private ActivityInput input(Duration timeout, String statement, Object... params) {
    Map<String, Object> with = new LinkedHashMap<>();
    with.put("url", url);
    with.put("statement", statement);
    with.put("params", new ArrayList<>(Arrays.asList(params)));
    return ActivityTestInputs.input(StepKind.SQL, Json.write(with), timeout, environment(home));
  }

  private ActivityResult run(String statement, Object... params) throws Exception {
    return sql.run(input(statement, params));
  }

  @Test
  void run_update_countsRows() throws Exception {
    ActivityResult one = run("insert into item (name, price) values (?, ?)", "apple", 1.5);
    ActivityResult three = run("insert into item (name) values ('a'), ('b'), ('c')");

    assertThat(one.output().get("updated").asInt()).isEqualTo(1);
    assertThat(one.summary()).isEqualTo("1 row updated");
    assertThat(three.summary()).isEqualTo("3 rows updated");
  }

  @Test
  void run_query_mapsColumnTypesToJson() throws Exception {
    run("insert into item values (?, ?, ?, x'00ff10', ?, ?)", 7, "pear", 2.25, true, "2024-05-01");
    run("insert into item (id) values (8)");

    ActivityResult result = run("select * from item order by id");

    JsonNode output = result.output();
    assertThat(output.get("columns").toString())
        .isEqualTo("[\"id\",\"name\",\"price\",\"data\",\"done\",\"due\"]");
    assertThat(output.get("row_count").asInt()).isEqualTo(2);
    JsonNode first = output.get("rows").get(0);
    assertThat(first.get("id").isIntegralNumber()).isTrue();
    assertThat(first.get("id").asInt()).isEqualTo(7);
    assertThat(first.get("name").asString()).isEqualTo("pear");
    assertThat(first.get("price").asDouble()).isEqualTo(2.25);
    assertThat(first.get("data").asString()).isEqualTo("AP8Q");
    assertThat(first.get("done").isBoolean()).isTrue();
    assertThat(first.get("done").asBoolean()).isTrue();
    assertThat(first.get("due").asString()).isEqualTo("2024-05-01");
    JsonNode second = output.get("rows").get(1);
    assertThat(second.get("name").isNull()).isTrue();
    assertThat(second.get("data").isNull()).isTrue();
    assertThat(result.summary()).isEqualTo("2 rows");
  }

  @Test
  void run_params_bindScalarsPositionally() throws Exception {
    ActivityResult result =
        run("select ? as s, ? as i, ? as d, ? as b, ? as n", "x", 42, 0.5, false, null);

    JsonNode row = result.output().get("rows").get(0);
    assertThat(row.get("s").asString()).isEqualTo("x");
    assertThat(row.get("i").asInt()).isEqualTo(42);
    assertThat(row.get("d").asDouble()).isEqualTo(0.5);
    assertThat(row.get("b").asInt()).isZero();
    assertThat(row.get("n").isNull()).isTrue();
    assertThat(result.summary()).isEqualTo("1 row");
  }

  @Test
  void run_repeatedColumnLabels_keepEveryValue() throws Exception {
    ActivityResult result = run("select 1 as v, 2 as v");

    assertThat(result.output().get("columns").toString()).isEqualTo("[\"v\",\"v_2\"]");
    assertThat(result.output().get("rows").get(0).get("v_2").asInt()).isEqualTo(2);
  }

  @Test
  void run_moreRowsThanMax_truncates() throws Exception {
    run("insert into item (id) values (1), (2), (3)");
    Map<String, Object> with =
        Map.of("url", url, "statement", "select id from item order by id", "max_rows", 2);

    ActivityResult result =
        sql.run(ActivityTestInputs.input(StepKind.SQL, Json.write(with), null, environment(home)));

    assertThat(result.output().get("row_count").asInt()).isEqualTo(2);
    assertThat(result.output().get("rows")).hasSize(2);
    assertThat(result.output().get("truncated").asBoolean()).isTrue();
  }

  @Test
  void run_badSql_failsSqlWithTheDriversMessageAndNoClassNames() {
    ActivityFailure failure = failure(sql, input("select * from missing_table"));

    assertThat(failure.kind()).isEqualTo("sql");
    assertThat(failure.getMessage()).contains("no such table: missing_table");
    assertThat(failure.getMessage()).doesNotContain("java.", "org.", "Exception");
    assertThat(failure.retryable()).isFalse();
  }

  @Test
  void run_unknownDriver_failsSqlNamingOnlyTheScheme() {
    Map<String, Object> with =
        Map.of("url", "jdbc:nosuch://host/db?password=secret", "statement", "select 1");

    ActivityFailure failure =
        failure(
            sql, ActivityTestInputs.input(StepKind.SQL, Json.write(with), null, environment(home)));

    assertThat(failure.kind()).isEqualTo("sql");
    assertThat(failure.getMessage())
        .isEqualTo("no JDBC driver for 'jdbc:nosuch:...' (shipped: sqlite, postgresql)");
    assertThat(failure.retryable()).isFalse();
  }

  @Test
  void run_passwordEnvUnset_failsInvalidInput() {
    Map<String, Object> with =
        Map.of("url", url, "statement", "select 1", "password_env", "CORTEX_TEST_UNSET_PW");

    ActivityFailure failure =
        failure(
            sql,
            ActivityTestInputs.input(
                StepKind.SQL, Json.write(with), null, environment(home, Map.of())));

    assertThat(failure.kind()).isEqualTo("invalid_input");
    assertThat(failure.getMessage()).contains("CORTEX_TEST_UNSET_PW");
    assertThat(failure.retryable()).isFalse();
  }

  @Test
  void run_interrupted_cancelsTheStatementAndRethrows() throws Exception {
    String endless =
        "with recursive n(x) as (select 1 union all select x + 1 from n) select count(*) from n";

    long started = System.nanoTime();
    Throwable thrown =
        ActivityTestInputs.interrupted(
            sql,
            input((Duration) null, endless),
            () -> System.nanoTime() - started > Duration.ofMillis(300).toNanos());

    assertThat(thrown).isInstanceOf(InterruptedException.class);
    assertThat(run("select 1 as one").output().get("rows").get(0).get("one").asInt()).isEqualTo(1);
  }

  @Test
  void preflight_shippedDrivers_acceptTheirUrlsWithoutConnecting() {
    Step sqlite = step(StepKind.SQL, Map.of("url", url, "statement", "select 1"));
    Step postgres =
        step(
            StepKind.SQL,
            Map.of("url", "jdbc:postgresql://127.0.0.1:1/nothing", "statement", "select 1"));

    assertThat(sql.preflight(sqlite, manifest(sqlite), environment(home))).isEmpty();
    assertThat(sql.preflight(postgres, manifest(postgres), environment(home))).isEmpty();
  }

  @Test
  void preflight_unknownDriver_isAProblem() {
    Step step = step(StepKind.SQL, Map.of("url", "jdbc:foo:bar", "statement", "select 1"));

    assertThat(sql.preflight(step, manifest(step), environment(home)))
        .containsExactly(
            "step 's': no JDBC driver for 'jdbc:foo:...' (shipped: sqlite, postgresql)");
  }

  @Test
  void preflight_templatedUrl_isSkipped_unsetPasswordEnv_isAProblem() {
    Step step =
        step(
            StepKind.SQL,
            Map.of("url", "${{ .params.db }}", "statement", "select 1", "password_env", "PW"));

    assertThat(sql.preflight(step, manifest(step), environment(home, Map.of())))
        .containsExactly("step 's': environment variable 'PW' (password_env) is not set");
    assertThat(sql.preflight(step, manifest(step), environment(home, Map.of("PW", "x")))).isEmpty();
  }
}
