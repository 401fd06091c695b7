package org.ocelotl.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.ocelotl.parquet.ParquetExport;
import org.ocelotl.parquet.ParquetTable;
import org.ocelotl.store.TraceStore;

/**
 * SQL over a trace (docs/sql.md): DuckDB, embedded through its JDBC driver, queries the trace's
 * Parquet dataset ({@link ParquetTable}) through one view per table — states, events, variables,
 * links, producers, types — with the dataset's columns. The dataset is written once per store,
 * into the store's directory ({@value #DIRECTORY}/), and rewritten when its layout's version is
 * not this Ocelotl's; a re-import replaces the store directory, and with it the dataset.
 *
 * <p>Only {@code java.sql} is used: the driver is found by its URL, so a build without DuckDB
 * refuses the query with a message instead of failing to load.
 */
public final class TraceSql {
  /** Sub-directory of a store directory holding its Parquet dataset. */
  public static final String DIRECTORY = "parquet";

  /** A query's answer: column names and SQL type names, and the rows (JDBC's values: Long, Double, String, …, or null). */
  public record Result(List<String> columns, List<String> types, List<List<Object>> rows) {
    /** {"columns": [...], "types": [...], "rows": [[...], ...]}: {@code ocelotl sql --json} and {@code /api/query}. */
    public byte[] json() {
      java.util.Map<String, Object> json = new java.util.LinkedHashMap<>();
      json.put("columns", columns);
      json.put("types", types);
      json.put("rows", rows);
      try {
        return new ObjectMapper().writeValueAsBytes(json);
      } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
        throw new java.io.UncheckedIOException(e); // plain values only: cannot happen
      }
    }

    /** CSV (RFC 4180): a header row, then the rows; {@code ocelotl sql --csv} and {@code /api/query?format=csv}. */
    public byte[] csv() {
      StringBuilder csv = new StringBuilder(csvRow(columns));
      rows.forEach(row -> csv.append(csvRow(row)));
      return csv.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    private static String csvRow(List<?> values) {
      List<String> fields = new ArrayList<>();
      for (Object value : values) {
        String text = value == null ? "" : value.toString();
        boolean quoted = text.contains(",") || text.contains("\"") || text.contains("\n") || text.contains("\r");
        fields.add(quoted ? "\"" + text.replace("\"", "\"\"") + "\"" : text);
      }
      return String.join(",", fields) + "\r\n";
    }
  }

  private TraceSql() {}

  /**
   * Runs {@code query} on {@code store}'s tables.
   *
   * @throws IllegalArgumentException for a query DuckDB refuses (its message's first line) or no DuckDB
   */
  public static Result query(TraceStore store, String query) throws IOException {
    Path dataset = dataset(store);
    try (Connection duck = connect(); Statement s = duck.createStatement()) {
      for (ParquetTable table : ParquetTable.values()) {
        s.execute("CREATE VIEW " + table.directory() + " AS SELECT * FROM read_parquet("
            + literal(dataset.resolve(table.directory()) + "/*.parquet") + ")");
      }
      try (ResultSet rs = s.executeQuery(query)) {
        return result(rs);
      }
    } catch (SQLException e) {
      throw new IllegalArgumentException("SQL: " + firstLine(e.getMessage()));
    }
  }

  /**
   * Runs {@code query} if it is one read-only query — a single SELECT or WITH statement — as the
   * server's Query tab asks (docs/sql.md#in-the-web-ui); anything else is refused before DuckDB
   * sees it.
   *
   * @throws IllegalArgumentException naming what is refused, or as {@link #query}
   */
  public static Result select(TraceStore store, String query) throws IOException {
    String words = code(query).strip();
    while (words.endsWith(";")) {
      words = words.substring(0, words.length() - 1).strip(); // one trailing semicolon is still one statement
    }
    if (words.isEmpty()) {
      throw new IllegalArgumentException("SQL: the query is empty");
    }
    if (words.contains(";")) {
      throw new IllegalArgumentException("SQL: one statement only (a ';' separates two)");
    }
    String first = words.split("[\\s(]+", 2)[0].toUpperCase(java.util.Locale.ROOT);
    if (!first.equals("SELECT") && !first.equals("WITH")) {
      throw new IllegalArgumentException("SQL: only a query (SELECT or WITH) is run here, not " + first
          + "; the command line's ocelotl sql runs any statement");
    }
    return query(store, query);
  }

  /**
   * The query with its comments and the contents of its quoted strings and names blanked out, so
   * that a ';' or a keyword inside them is not taken for the statement's.
   */
  static String code(String query) {
    StringBuilder code = new StringBuilder(query.length());
    int i = 0;
    while (i < query.length()) {
      char c = query.charAt(i);
      if (c == '-' && query.startsWith("--", i)) {
        int end = query.indexOf('\n', i);
        i = end < 0 ? query.length() : end;
        code.append(' ');
      } else if (c == '/' && query.startsWith("/*", i)) {
        int end = query.indexOf("*/", i + 2);
        i = end < 0 ? query.length() : end + 2;
        code.append(' ');
      } else if (c == '\'' || c == '"') {
        // A quote inside is doubled ('it''s'): the string goes on after it.
        int end = i + 1;
        while (end < query.length() && (query.charAt(end) != c || end + 1 < query.length() && query.charAt(end + 1) == c)) {
          end += query.charAt(end) == c ? 2 : 1;
        }
        i = Math.min(query.length(), end + 1);
        code.append(c).append(c);
      } else {
        code.append(c);
        i++;
      }
    }
    return code.toString();
  }

  /** The store's dataset, written first if it has none of this layout's version. */
  static Path dataset(TraceStore store) throws IOException {
    Path dataset = store.directory().resolve(DIRECTORY);
    if (!isCurrent(dataset)) {
      ParquetExport.write(store, dataset, ParquetExport.CHUNKS_PER_FILE, true);
    }
    return dataset;
  }

  private static boolean isCurrent(Path dataset) throws IOException {
    Path description = dataset.resolve(ParquetTable.DATASET_FILE);
    if (!Files.isRegularFile(description)) {
      return false;
    }
    try {
      JsonNode version = new ObjectMapper().readTree(description.toFile()).get("version");
      return version != null && version.asInt() == ParquetTable.VERSION;
    } catch (IOException damaged) {
      return false; // written again
    }
  }

  static Connection connect() {
    try {
      return DriverManager.getConnection("jdbc:duckdb:");
    } catch (SQLException e) {
      throw new IllegalArgumentException("SQL needs DuckDB's JDBC driver (org.duckdb:duckdb_jdbc) on the class path: "
          + firstLine(e.getMessage()));
    }
  }

  private static Result result(ResultSet rs) throws SQLException {
    ResultSetMetaData meta = rs.getMetaData();
    int n = meta.getColumnCount();
    List<String> columns = new ArrayList<>();
    List<String> types = new ArrayList<>();
    for (int c = 1; c <= n; c++) {
      columns.add(meta.getColumnLabel(c));
      types.add(meta.getColumnTypeName(c));
    }
    List<List<Object>> rows = new ArrayList<>();
    while (rs.next()) {
      Object[] row = new Object[n];
      for (int c = 1; c <= n; c++) {
        Object value = rs.getObject(c);
        // Numbers, text and truth values as they are; dates, lists and structs as DuckDB prints them.
        row[c - 1] = value == null || value instanceof Number || value instanceof String || value instanceof Boolean
            ? value : value.toString();
      }
      rows.add(Arrays.asList(row));
    }
    return new Result(List.copyOf(columns), List.copyOf(types), rows);
  }

  /** A SQL string literal: quotes doubled. */
  static String literal(String text) {
    return "'" + text.replace("'", "''") + "'";
  }

  /** DuckDB's messages add the query and a caret on further lines; the first says what is wrong. */
  static String firstLine(String message) {
    if (message == null) {
      return "(no message)";
    }
    String line = message.strip().lines().findFirst().orElse("");
    return line.isEmpty() ? message.strip() : line;
  }
}
