package org.ocelotl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A trace whose records all lie at one time (issue 31): it imports with one warning saying so,
 * and every command that reads it without a window uses one time unit from that time, never an
 * empty window.
 */
class ZeroDurationTest {
  @TempDir Path tmp;

  /** The API tests' tiny trace with every time set to 5 s. */
  static final String TRACE = """
%EventDef PajeDefineContainerType 0
%       Alias string
%       Type string
%       Name string
%EndEventDef
%EventDef PajeDefineStateType 1
%       Alias string
%       Type string
%       Name string
%EndEventDef
%EventDef PajeDefineEntityValue 2
%       Alias string
%       Type string
%       Name string
%       Color color
%EndEventDef
%EventDef PajeCreateContainer 3
%       Time date
%       Alias string
%       Type string
%       Container string
%       Name string
%EndEventDef
%EventDef PajeDestroyContainer 4
%       Time date
%       Type string
%       Name string
%EndEventDef
%EventDef PajeSetState 5
%       Time date
%       Type string
%       Container string
%       Value string
%EndEventDef
0 N 0 Node
0 R N Rank
1 S R State
2 c S compute "0.2 0.4 0.8"
2 w S wait "0.9 0.3 0.2"
3 5 n1 N 0 node1
3 5 n2 N 0 node2
3 5 r1 R n1 rank1
3 5 r2 R n1 rank2
3 5 r3 R n2 rank3
3 5 r4 R n2 rank4
5 5 S r1 c
5 5 S r2 c
5 5 S r3 c
5 5 S r4 c
5 5 S r1 w
5 5 S r2 w
5 5 S r3 w
5 5 S r4 w
5 5 S r1 c
5 5 S r2 c
5 5 S r4 c
5 5 S r3 c
4 5 R r1
4 5 R r2
4 5 R r3
4 5 R r4
4 5 N n1
4 5 N n2
""";

  @Test
  void aTraceWithoutDurationIsUsableAndSaidSoOnceAtImport() throws IOException {
    Path trace = Files.writeString(tmp.resolve("instant.trace"), TRACE);
    String ws = tmp.resolve("ws").toString();
    CliTest.Result info = CliTest.run("info", trace.toString(), "--workspace", ws, "--json");
    assertEquals(0, info.status(), info.err());
    assertTrue(info.out().contains("\"the trace has no duration: every record is at 5.0 s; views show it over [5.0, 6.0) s\""),
        info.out());
    CliTest.Result events = CliTest.run("events", trace.toString(), "--workspace", ws);
    assertEquals(0, events.status(), events.err());
    assertEquals(1 + 12, events.out().lines().count(), events.out()); // a header, 12 states of no length
    CliTest.Result stats = CliTest.run("stats", trace.toString(), "--workspace", ws);
    assertEquals(0, stats.status(), stats.err());
    CliTest.Result gantt = CliTest.run("gantt", trace.toString(), "--workspace", ws, "--out", tmp.resolve("g.svg").toString());
    assertEquals(0, gantt.status(), gantt.err());
    CliTest.Result export = CliTest.run("export", trace.toString(), "--workspace", ws, "--format", "csv", "--out",
        tmp.resolve("e.csv").toString());
    assertEquals(0, export.status(), export.err());
    CliTest.Result again = CliTest.run("info", trace.toString(), "--workspace", ws, "--json");
    assertEquals(1, again.out().split("has no duration", -1).length - 1, "said once: " + again.out());
  }
}
