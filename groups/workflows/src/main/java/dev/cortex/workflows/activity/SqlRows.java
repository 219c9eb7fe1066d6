package dev.cortex.workflows.activity;

import dev.cortex.base.Json;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A result set as JSON: {@code {columns, rows, row_count}} with each row an object by column label.
 * Integers and decimals are numbers, booleans booleans, binary data base64 text, dates and times
 * ISO 8601 text ({@code timestamptz} in UTC), JSON columns parsed.
 */
final class SqlRows {
  private static final JsonNodeFactory NODES = Json.mapper().getNodeFactory();

  private SqlRows() {}

  /** Reads at most {@code maxRows}; {@code truncated} is set when there were more. */
  static ObjectNode read(ResultSet rows, int maxRows) throws SQLException {
    ResultSetMetaData meta = rows.getMetaData();
    List<String> labels = labels(meta);
    ObjectNode output = NODES.objectNode();
    ArrayNode columns = output.putArray("columns");
    labels.forEach(columns::add);
    ArrayNode list = output.putArray("rows");
    int count = 0;
    boolean truncated = false;
    while (rows.next()) {
      if (count == maxRows) {
        truncated = true;
        break;
      }
      ObjectNode row = list.addObject();
      for (int column = 1; column <= labels.size(); column++) {
        row.set(labels.get(column - 1), value(rows, column, meta));
      }
      count++;
    }
    output.put("row_count", count);
    if (truncated) {
      output.put("truncated", true);
    }
    return output;
  }

  /** Column labels, a repeated one suffixed {@code _2}, {@code _3}... so rows keep every value. */
  private static List<String> labels(ResultSetMetaData meta) throws SQLException {
    List<String> labels = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (int column = 1; column <= meta.getColumnCount(); column++) {
      String label = meta.getColumnLabel(column);
      String unique = label;
      for (int n = 2; !seen.add(unique); n++) {
        unique = label + "_" + n;
      }
      labels.add(unique);
    }
    return labels;
  }

  private static JsonNode value(ResultSet rows, int column, ResultSetMetaData meta)
      throws SQLException {
    Object value = rows.getObject(column);
    if (value == null) {
      return NODES.nullNode();
    }
    int type = meta.getColumnType(column);
    String typeName = String.valueOf(meta.getColumnTypeName(column)).toLowerCase(Locale.ROOT);
    if ((type == Types.BOOLEAN || type == Types.BIT) && value instanceof Number number) {
      return NODES.booleanNode(number.longValue() != 0);
    }
    if (value instanceof Timestamp timestamp) {
      return NODES.stringNode(
          typeName.equals("timestamptz")
              ? timestamp.toInstant().toString()
              : timestamp.toLocalDateTime().toString());
    }
    if ((typeName.equals("json") || typeName.equals("jsonb")) && !(value instanceof Array)) {
      try {
        return OutputText.parseJson(value.toString());
      } catch (IllegalArgumentException e) {
        return NODES.stringNode(value.toString());
      }
    }
    return plain(value);
  }

  /** A value by its Java type alone (also the elements of SQL arrays). */
  private static JsonNode plain(Object value) throws SQLException {
    if (value == null) {
      return NODES.nullNode();
    }
    if (value instanceof Boolean bool) {
      return NODES.booleanNode(bool);
    }
    if (value instanceof Integer
        || value instanceof Long
        || value instanceof Short
        || value instanceof Byte) {
      return NODES.numberNode(((Number) value).longValue());
    }
    if (value instanceof BigInteger integer) {
      return NODES.numberNode(integer);
    }
    if (value instanceof BigDecimal decimal) {
      return NODES.numberNode(decimal);
    }
    if (value instanceof Float || value instanceof Double) {
      double number = ((Number) value).doubleValue();
      return Double.isFinite(number)
          ? NODES.numberNode(number)
          : NODES.stringNode(String.valueOf(number));
    }
    if (value instanceof byte[] bytes) {
      return NODES.stringNode(Base64.getEncoder().encodeToString(bytes));
    }
    return structured(value);
  }

  private static JsonNode structured(Object value) throws SQLException {
    if (value instanceof Blob blob) {
      return plain(blob.getBytes(1, (int) Math.min(Integer.MAX_VALUE, blob.length())));
    }
    if (value instanceof Clob clob) {
      return NODES.stringNode(
          clob.getSubString(1, (int) Math.min(Integer.MAX_VALUE, clob.length())));
    }
    if (value instanceof java.sql.Date date) {
      return NODES.stringNode(date.toLocalDate().toString());
    }
    if (value instanceof Time time) {
      return NODES.stringNode(time.toLocalTime().toString());
    }
    if (value instanceof Timestamp timestamp) {
      return NODES.stringNode(timestamp.toLocalDateTime().toString());
    }
    if (value instanceof Array array) {
      ArrayNode elements = NODES.arrayNode();
      Object content = array.getArray();
      if (content instanceof Object[] objects) {
        for (Object element : objects) {
          elements.add(plain(element));
        }
      }
      return elements;
    }
    // java.time values, UUIDs, intervals and the like: their text is ISO or canonical.
    return NODES.stringNode(value.toString());
  }
}
