package org.ocelotl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/sql.md runs: each query of the page gives, on the bundled trace, the output shown after it;
 * the first one (time per state per rank in a window) is the answer of {@code ocelotl stats --by
 * producer}, row by row. And {@code ocelotl sql}'s own behaviour: the formats, bad queries.
 */
class SqlQueriesTest {
  static final Path BUNDLED = Path.of("../examples/smpi_perturbed.trace.gz");
  static final Path PAGE = Path.of("../docs/sql.md");
  /** A query block, then the block of its output. */
  static final Pattern QUERY = Pattern.compile("```sql\\n(.*?)```\\n\\n```\\n(.*?)```", Pattern.DOTALL);

  @TempDir static Path tmp;

  static String workspace() {
    return tmp.resolve("ws").toString();
  }

  @BeforeAll
  static void importOnce() {
    CliTest.Result first = CliTest.run("sql", BUNDLED.toString(), "SELECT count(*) AS states FROM states",
        "--workspace", workspace());
    assertEquals(new CliTest.Result(0, "states\n117312\n(1 row)\n", ""), first);
  }

  @Test
  void everyQueryOfThePageGivesTheOutputShown() throws IOException {
    Matcher m = QUERY.matcher(Files.readString(PAGE));
    List<String> shown = new ArrayList<>();
    List<String> got = new ArrayList<>();
    while (m.find()) {
      CliTest.Result result = CliTest.run("sql", BUNDLED.toString(), m.group(1), "--workspace", workspace());
      shown.add(m.group(1) + "\n" + m.group(2));
      got.add(m.group(1) + "\n" + (result.status() == 0 ? result.out() : result.err()));
    }
    assertEquals(3, shown.size());
    assertEquals(String.join("\n", shown), String.join("\n", got)); // every difference at once
  }

  @Test
  void timePerStatePerRankIsTheAnswerOfStats() throws IOException {
    Matcher m = QUERY.matcher(Files.readString(PAGE));
    assertTrue(m.find());
    String all = m.group(1).replace("ORDER BY seconds DESC LIMIT 5", "");
    CliTest.Result sql = CliTest.run("sql", BUNDLED.toString(), all, "--csv", "--workspace", workspace());
    assertEquals(0, sql.status(), sql.err());
    CliTest.Result stats = CliTest.run("stats", BUNDLED.toString(), "--from", "8", "--to", "9", "--producers", "nancy",
        "--kind", "state", "--by", "producer", "--workspace", workspace());
    assertEquals(0, stats.status(), stats.err());
    Map<String, double[]> bySql = new TreeMap<>();
    for (String line : rows(sql.out())) {
      String[] f = line.split(",");
      bySql.put(f[0] + " " + f[1], new double[] {Double.parseDouble(f[2]), Double.parseDouble(f[3])});
    }
    Map<String, double[]> byStats = new TreeMap<>();
    for (String line : rows(stats.out())) { // type,kind,producer,total,share,records,…
      String[] f = line.split(",");
      byStats.put(f[0] + " " + f[2], new double[] {Double.parseDouble(f[3]), Double.parseDouble(f[5])});
    }
    assertEquals(byStats.keySet(), bySql.keySet());
    assertTrue(byStats.size() > 16, byStats.size() + " rows");
    for (String key : byStats.keySet()) {
      assertEquals(byStats.get(key)[0], bySql.get(key)[0], 1e-9, key);
      assertEquals(byStats.get(key)[1], bySql.get(key)[1], key);
    }
  }

  @Test
  void csvAndJsonSayTheSame() {
    String query = "SELECT name, category, count FROM types WHERE count > 30000 ORDER BY id";
    CliTest.Result csv = CliTest.run("sql", BUNDLED.toString(), query, "--csv", "--workspace", workspace());
    assertEquals(new CliTest.Result(0, "name,category,count\r\nMPI_LINK,link,38400\r\nbandwidth_used,variable,55387\r\n"
        + "PMPI_Irecv,state,38400\r\nPMPI_Isend,state,38400\r\n", ""), csv);
    CliTest.Result json = CliTest.run("sql", BUNDLED.toString(), query + " LIMIT 1", "--json", "--workspace",
        workspace());
    assertEquals(new CliTest.Result(0, "{\"columns\":[\"name\",\"category\",\"count\"],\"types\":[\"VARCHAR\","
        + "\"VARCHAR\",\"BIGINT\"],\"rows\":[[\"MPI_LINK\",\"link\",38400]]}\n", ""), json);
  }

  @Test
  void aBadQueryIsOneLine() {
    CliTest.Result bad = CliTest.run("sql", BUNDLED.toString(), "SELECT nope FROM states", "--workspace", workspace());
    assertEquals(1, bad.status());
    assertTrue(bad.err().startsWith("ocelotl: SQL: Binder Error: Referenced column \"nope\" not found"), bad.err());
    assertEquals(1, bad.err().lines().count(), bad.err());
    CliTest.Result both = CliTest.run("sql", BUNDLED.toString(), "SELECT 1", "--csv", "--json", "--workspace",
        workspace());
    assertEquals(2, both.status());
  }

  private static List<String> rows(String csv) {
    List<String> rows = new ArrayList<>(csv.lines().toList());
    rows.remove(0);
    return rows;
  }
}
