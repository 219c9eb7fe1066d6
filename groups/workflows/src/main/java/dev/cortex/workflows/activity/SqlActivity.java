package dev.cortex.workflows.activity;

import dev.cortex.base.Json;
import dev.cortex.mcp.tool.Schema;
import dev.cortex.workflows.manifest.Manifest;
import dev.cortex.workflows.manifest.Step;
import dev.cortex.workflows.manifest.StepKind;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code sql} kind: runs one statement over JDBC with positional parameters and returns the
 * rows it selects or the number it updates. The SQLite and PostgreSQL drivers are shipped.
 */
public final class SqlActivity implements Activity {
  private static final int DEFAULT_MAX_ROWS = 100_000;
  private static final Duration CANCEL_GRACE = Duration.ofSeconds(5);
  private static final String SHIPPED = "shipped: sqlite, postgresql";

  public SqlActivity() {}

  @Override
  public StepKind kind() {
    return StepKind.SQL;
  }

  @Override
  public String description() {
    return "Runs one SQL statement over JDBC (SQLite and PostgreSQL drivers are shipped) and"
        + " returns the rows it selects or the number of rows it updates.";
  }

  @Override
  public String outputDescription() {
    return "{columns, rows (an array of objects, one per row), row_count}, truncated past"
        + " max_rows; {updated} for statements that change rows.";
  }

  @Override
  public Map<String, Object> inputSchema() {
    return Schema.object()
        .required(
            "url",
            Schema.pattern(
                "The JDBC URL, e.g. jdbc:sqlite:data.db or jdbc:postgresql://host:5432/db.",
                "^jdbc:"))
        .required(
            "statement",
            Schema.string("One SQL statement; each ? is bound to the next of params.", 1, -1))
        .optional(
            "params",
            Schema.array(
                "Values bound to the statement's ? placeholders, in order: strings, numbers,"
                    + " booleans or null.",
                Map.of("type", List.of("string", "number", "boolean", "null")),
                0,
                0,
                false))
        .optional("user", Schema.string("The database user to connect as."))
        .optional(
            "password_env",
            Schema.pattern(
                "The name of the environment variable that holds the password; a password is"
                    + " never written in a workflow.",
                "^[A-Za-z_][A-Za-z0-9_]*$"))
        .optional(
            "max_rows",
            Schema.integer(
                "The most rows returned; past it the rest are dropped and truncated is set."
                    + " Default 100000.",
                1,
                Integer.MAX_VALUE - 1))
        .build();
  }

  @Override
  public List<String> preflight(Step step, Manifest manifest, ActivityEnvironment environment) {
    List<String> problems = new ArrayList<>();
    OutputText.literal(step.with(), "url")
        .flatMap(SqlActivity::driverProblem)
        .ifPresent(problem -> problems.add("step '" + step.id() + "': " + problem));
    OutputText.literal(step.with(), "password_env")
        .filter(name -> environment.variable(name).isEmpty())
        .ifPresent(
            name ->
                problems.add(
                    "step '"
                        + step.id()
                        + "': environment variable '"
                        + name
                        + "' (password_env) is not set"));
    return problems;
  }

  @Override
  public ActivityResult run(ActivityInput input) throws ActivityFailure, InterruptedException {
    JsonNode with = input.with();
    String url = with.path("url").asString("");
    Optional<String> noDriver = driverProblem(url);
    if (noDriver.isPresent()) {
      throw new ActivityFailure("sql", noDriver.get(), null, false);
    }
    Request request =
        new Request(
            url,
            connectionProperties(with, input.environment()),
            with.path("statement").asString(""),
            with.path("params"),
            with.path("max_rows").asInt(DEFAULT_MAX_ROWS),
            input.timeoutDuration().map(SqlActivity::seconds).orElse(0));
    ObjectNode output = execute(request, input.stepId());
    String summary =
        output.has("updated")
            ? OutputText.count(output.get("updated").asLong(), "row") + " updated"
            : OutputText.count(output.get("row_count").asLong(), "row");
    return ActivityResult.of(output, summary);
  }

  private record Request(
      String url,
      Properties properties,
      String statement,
      JsonNode params,
      int maxRows,
      int timeoutSeconds) {}

  /** Runs the statement on a worker so that an interrupt can cancel it from this thread. */
  private static ObjectNode execute(Request request, String stepId)
      throws ActivityFailure, InterruptedException {
    Cancellation cancellation = new Cancellation();
    FutureTask<ObjectNode> task = new FutureTask<>(() -> execute(request, cancellation));
    Thread worker = new Thread(task, "cortex-sql-" + stepId);
    worker.setDaemon(true);
    worker.start();
    try {
      return task.get();
    } catch (InterruptedException e) {
      cancellation.cancel();
      worker.join(CANCEL_GRACE.toMillis());
      throw e;
    } catch (ExecutionException e) {
      throw failure(e.getCause());
    }
  }

  private static ObjectNode execute(Request request, Cancellation cancellation)
      throws SQLException, ActivityFailure {
    try (Connection connection = DriverManager.getConnection(request.url(), request.properties());
        PreparedStatement statement = connection.prepareStatement(request.statement())) {
      if (!cancellation.register(statement)) {
        throw new ActivityFailure("sql", "cancelled");
      }
      bind(statement, request.params());
      if (request.timeoutSeconds() > 0) {
        statement.setQueryTimeout(request.timeoutSeconds());
      }
      statement.setMaxRows(request.maxRows() + 1);
      if (statement.execute()) {
        try (ResultSet rows = statement.getResultSet()) {
          return SqlRows.read(rows, request.maxRows());
        }
      }
      ObjectNode output = Json.mapper().createObjectNode();
      output.put("updated", Math.max(0, statement.getUpdateCount()));
      return output;
    }
  }

  private static void bind(PreparedStatement statement, JsonNode params)
      throws SQLException, ActivityFailure {
    for (int i = 0; i < params.size(); i++) {
      JsonNode value = params.get(i);
      int index = i + 1;
      if (value.isNull()) {
        statement.setNull(index, Types.NULL);
      } else if (value.isBoolean()) {
        statement.setBoolean(index, value.booleanValue());
      } else if (value.isIntegralNumber() && value.canConvertToLong()) {
        statement.setLong(index, value.longValue());
      } else if (value.isIntegralNumber() || value.isBigDecimal()) {
        statement.setBigDecimal(index, new BigDecimal(value.asString()));
      } else if (value.isNumber()) {
        statement.setDouble(index, value.doubleValue());
      } else if (value.isString()) {
        statement.setString(index, value.stringValue());
      } else {
        throw new ActivityFailure(
            "invalid_input",
            "params[" + i + "] must be a string, number, boolean or null",
            null,
            false);
      }
    }
  }

  private static Properties connectionProperties(JsonNode with, ActivityEnvironment environment)
      throws ActivityFailure {
    Properties properties = new Properties();
    if (with.path("user").isString()) {
      properties.setProperty("user", with.get("user").stringValue());
    }
    if (with.path("password_env").isString()) {
      String name = with.get("password_env").stringValue();
      String password =
          environment
              .variable(name)
              .orElseThrow(
                  () ->
                      new ActivityFailure(
                          "invalid_input",
                          "environment variable '" + name + "' (password_env) is not set",
                          null,
                          false));
      properties.setProperty("password", password);
    }
    return properties;
  }

  /** Why no shipped driver takes {@code url}, naming only its scheme (a URL may hold secrets). */
  private static Optional<String> driverProblem(String url) {
    try {
      DriverManager.getDriver(url);
      return Optional.empty();
    } catch (SQLException e) {
      return Optional.of("no JDBC driver for '" + scheme(url) + "' (" + SHIPPED + ")");
    }
  }

  private static String scheme(String url) {
    int first = url.indexOf(':');
    int second = first < 0 ? -1 : url.indexOf(':', first + 1);
    return second < 0 ? OutputText.shorten(url) : url.substring(0, second + 1) + "...";
  }

  private static int seconds(Duration timeout) {
    long seconds = (timeout.toMillis() + 999) / 1000;
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, seconds));
  }

  private static ActivityFailure failure(Throwable cause) {
    if (cause instanceof ActivityFailure failure) {
      return failure;
    }
    String message = OutputText.withoutClassNames(cause.getMessage());
    if (cause instanceof SQLException e) {
      if (message.isEmpty()) {
        message = "the database reported an error (SQLState " + e.getSQLState() + ")";
      }
      return new ActivityFailure("sql", message, null, retryable(e));
    }
    return new ActivityFailure(
        "sql", message.isEmpty() ? "the statement failed" : message, null, false);
  }

  /** Connection trouble, timeouts, deadlocks, serialization failures and busy databases. */
  private static boolean retryable(SQLException e) {
    String state = e.getSQLState() == null ? "" : e.getSQLState();
    String message = e.getMessage() == null ? "" : e.getMessage();
    return e instanceof SQLTransientException
        || e instanceof SQLRecoverableException
        || e instanceof SQLTimeoutException
        || state.startsWith("08")
        || state.startsWith("40")
        || message.contains("[SQLITE_BUSY]")
        || message.contains("[SQLITE_LOCKED]");
  }

  /** The running statement, cancelled from the waiting thread on interrupt. */
  private static final class Cancellation {
    private Statement statement;
    private boolean cancelled;

    synchronized boolean register(Statement running) {
      statement = running;
      return !cancelled;
    }

    void cancel() {
      Statement running;
      synchronized (this) {
        cancelled = true;
        running = statement;
      }
      if (running != null) {
        try {
          running.cancel();
        } catch (SQLException e) {
          // The statement may already be done; the connection closes with the worker.
        }
      }
    }
  }
}
