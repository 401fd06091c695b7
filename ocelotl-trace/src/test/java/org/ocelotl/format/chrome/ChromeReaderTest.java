package org.ocelotl.format.chrome;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.testing.SharedTraces;
import org.ocelotl.model.EventCategory;
import org.ocelotl.trace.MemoryTrace;
import org.ocelotl.trace.ReadOptions;
import org.ocelotl.trace.TraceFormatException;

class ChromeReaderTest {
  @TempDir Path dir;

  /**
   * A tiny unsorted trace, drawn (time →, pid 1):
   * <pre>
   * tid 7:  [A 0..10 (B/E)  [X 2..5 (X)]  i@3 ]
   * tid 8:  [C 1..4 (X)]                     flow s@1 (tid 8) → t@6 (tid 7) → f@9 (tid 8)
   * lane "op 0x1": [load 0..8 [parse 2..3]]   plus an 'e' of "other" with no begin
   * counter "mem": bytes=5 @0, bytes=7 @4
   * </pre>
   */
  @Test
  void smallTraceResolvesExactly() throws IOException {
    String json = """
        [ {"ph":"E","pid":1,"tid":7,"ts":10},
          {"ph":"X","pid":1,"tid":7,"ts":2,"dur":3,"name":"X","cat":"c"},
          {"ph":"B","pid":1,"tid":7,"ts":0,"name":"A","cat":"c"},
          {"ph":"i","pid":1,"tid":7,"ts":3,"name":"tick"},
          {"ph":"X","pid":1,"tid":8,"ts":1,"dur":3,"name":"C"},
          {"ph":"b","pid":1,"tid":7,"ts":2,"name":"parse","cat":"op","id":"0x1"},
          {"ph":"e","pid":1,"tid":7,"ts":3,"name":"parse","cat":"op","id":"0x1"},
          {"ph":"b","pid":1,"tid":7,"ts":0,"name":"load","cat":"op","id":"0x1"},
          {"ph":"e","pid":1,"tid":7,"ts":8,"name":"load","cat":"op","id":"0x1"},
          {"ph":"e","pid":1,"tid":7,"ts":8,"name":"other","cat":"op","id":"0x1"},
          {"ph":"C","pid":1,"tid":7,"ts":4,"name":"mem","args":{"bytes":7}},
          {"ph":"C","pid":1,"tid":7,"ts":0,"name":"mem","args":{"bytes":5}},
          {"ph":"f","pid":1,"tid":8,"ts":9,"name":"req","cat":"f","id":3},
          {"ph":"s","pid":1,"tid":8,"ts":1,"name":"req","cat":"f","id":3},
          {"ph":"t","pid":1,"tid":7,"ts":6,"name":"req","cat":"f","id":3},
          {"ph":"M","pid":1,"tid":8,"name":"thread_name","args":{"name":"worker"}},
          {"ph":"M","pid":1,"tid":8,"name":"thread_sort_index","args":{"sort_index":-1}},
          {"ph":"M","pid":1,"name":"process_name","args":{"name":"app"}}
        ]""";
    Path file = dir.resolve("small.json");
    Files.writeString(file, json);
    assertTrue(ChromeReader.sniff(json.getBytes(StandardCharsets.UTF_8)));
    MemoryTrace trace = new MemoryTrace();
    new ChromeReader().read(file, trace, ReadOptions.STRICT);

    List<String> producers = trace.producers.stream()
        .map(p -> p.id() + ":" + p.name() + "/" + p.kind() + "<" + p.parent()).toList();
    assertEquals(List.of("0:small.json/trace<-1", "1:app/process<0", "2:worker/thread<1",
        "3:tid 7/thread<1", "4:counters/counters<1", "5:async/async lanes<1",
        "6:parse/async group<5", "7:op 0x1/async lane<6"), producers);
    Map<Integer, String> names = new HashMap<>();
    trace.types.forEach(t -> names.put(t.id(), t.name()));
    List<String> states = trace.states.stream()
        .map(s -> s.producer() + " " + names.get(s.type()) + " " + s.start() + ".." + s.end()
            + " d" + s.depth())
        .sorted().toList();
    assertEquals(List.of("2 C 1.0..4.0 d0", "3 A 0.0..10.0 d0", "3 X 2.0..5.0 d1",
        "7 load 0.0..8.0 d0", "7 parse 2.0..3.0 d1"), states);
    assertEquals(1, trace.events.size());
    assertEquals("tick", names.get(trace.events.get(0).type()));
    assertEquals(3, trace.events.get(0).producer());
    List<String> variables = trace.variables.stream()
        .map(v -> v.producer() + " " + names.get(v.type()) + " " + v.time() + "=" + v.value())
        .sorted().toList();
    assertEquals(List.of("4 mem.bytes 0.0=5.0", "4 mem.bytes 4.0=7.0"), variables);
    List<String> links = trace.links.stream()
        .map(l -> names.get(l.type()) + " " + l.from() + "@" + l.start() + "->" + l.to() + "@"
            + l.end())
        .toList();
    assertEquals(List.of("req 2@1.0->3@6.0", "req 3@6.0->2@9.0"), links);
    assertEquals(List.of("1 × async end (e) without its begin"), trace.warnings);
    assertEquals(0.0, trace.start);
    assertEquals(10.0, trace.end);
    assertEquals("us", trace.timeUnit);
  }

  private static final Pattern NODE_EVENT = Pattern.compile(
      "\\{\"pid\":(\\d+),\"tid\":(\\d+),\"ts\":(\\d+),\"tts\":\\d+,\"ph\":\"(\\w)\","
          + "\"cat\":\"([^\"]*)\",\"name\":\"([^\"]*)\",\"dur\":(\\d+),\"tdur\":\\d+"
          + "(?:,\"id\":\"([^\"]*)\")?");

  private record Raw(int seq, String thread, long ts, char ph, String cat, String name,
      long dur, String id) {}

  /**
   * Node's trace against an independent computation on a regular-expression scan of the file
   * (Node writes every event's fields in one fixed order): per phase counts, then begin/end
   * matching by brute force over lists sorted by time.
   */
  @Test
  void nodeTraceMatchesIndependentScan() throws IOException {
    Path file = SharedTraces.file("chrome/node_trace.json");
    String text = Files.readString(file);
    List<Raw> raws = new ArrayList<>();
    Matcher m = NODE_EVENT.matcher(text);
    while (m.find()) {
      raws.add(new Raw(raws.size(), m.group(1) + "/" + m.group(2), Long.parseLong(m.group(3)),
          m.group(4).charAt(0), m.group(5), m.group(6), Long.parseLong(m.group(7)), m.group(8)));
    }
    assertEquals(28_304, raws.size(), "every event of the file is seen by the scan");

    Map<String, Long> expectedStates = new TreeMap<>();
    long unmatchedE = 0;
    long unmatchedAsyncBegins = 0;
    long unmatchedAsyncEnds = 0;
    long instants = 0;
    Map<String, List<Raw>> threads = new HashMap<>();
    Map<String, List<Raw>> lanes = new HashMap<>();
    for (Raw r : raws) {
      switch (r.ph()) {
        case 'X' -> expectedStates.merge(r.name(), 1L, Long::sum);
        case 'B', 'E' -> threads.computeIfAbsent(r.thread(), k -> new ArrayList<>()).add(r);
        case 'b', 'e' -> lanes.computeIfAbsent(r.thread().split("/")[0] + " " + r.cat() + " "
            + r.id(), k -> new ArrayList<>()).add(r);
        case 'I' -> instants++;
        default -> { }
      }
    }
    for (List<Raw> list : threads.values()) {
      list.sort(Comparator.comparingLong(Raw::ts).thenComparingInt(Raw::seq));
      List<Raw> open = new ArrayList<>();
      for (Raw r : list) {
        if (r.ph() == 'B') {
          open.add(r);
        } else if (open.isEmpty()) {
          unmatchedE++;
        } else {
          expectedStates.merge(open.remove(open.size() - 1).name(), 1L, Long::sum);
        }
      }
    }
    for (List<Raw> list : lanes.values()) {
      list.sort(Comparator.comparingLong(Raw::ts).thenComparingInt(Raw::seq));
      List<Raw> open = new ArrayList<>();
      for (Raw r : list) {
        if (r.ph() == 'b') {
          open.add(r);
          continue;
        }
        boolean found = false;
        for (int i = open.size() - 1; i >= 0 && !found; i--) {
          if (open.get(i).name().equals(r.name())) {
            expectedStates.merge(open.remove(i).name(), 1L, Long::sum);
            found = true;
          }
        }
        if (!found) {
          unmatchedAsyncEnds++;
        }
      }
      unmatchedAsyncBegins += open.size();
    }

    MemoryTrace trace = new MemoryTrace();
    new ChromeReader().read(file, trace, ReadOptions.STRICT);
    Map<Integer, MemoryTrace.Type> types = new HashMap<>();
    trace.types.forEach(t -> types.put(t.id(), t));
    Map<String, Long> actualStates = new TreeMap<>();
    trace.states.forEach(s -> {
      assertEquals(EventCategory.STATE, types.get(s.type()).category());
      assertTrue(s.end() >= s.start());
      actualStates.merge(types.get(s.type()).name(), 1L, Long::sum);
    });
    assertEquals(expectedStates, actualStates);
    assertEquals(instants, trace.events.size());
    assertTrue(trace.variables.isEmpty());
    assertTrue(trace.links.isEmpty());
    long threadCount = raws.stream().map(Raw::thread).distinct().count();
    assertEquals(threadCount, trace.producers.stream().filter(p -> p.kind().equals("thread")).count());
    assertTrue(trace.producers.stream().anyMatch(p -> p.name().equals("JavaScriptMainThread")));
    assertEquals("node", trace.producers.get(1).name());
    List<String> expectedWarnings = new ArrayList<>();
    if (unmatchedAsyncBegins > 0) {
      expectedWarnings.add(unmatchedAsyncBegins + " × async begin (b) without its end (dropped)");
    }
    if (unmatchedAsyncEnds > 0) {
      expectedWarnings.add(unmatchedAsyncEnds + " × async end (e) without its begin");
    }
    if (unmatchedE > 0) {
      expectedWarnings.add(unmatchedE + " × end (E) without its begin");
    }
    assertEquals(expectedWarnings, trace.warnings);
    assertTrue(unmatchedAsyncBegins >= 13_584 - 11_050);
  }

  @Test
  void fileCutInTheMiddleNamesLineAndColumn() throws IOException {
    byte[] bytes = Files.readAllBytes(SharedTraces.file("chrome/node_trace.json"));
    Path cut = dir.resolve("cut.json");
    Files.write(cut, java.util.Arrays.copyOf(bytes, bytes.length / 2));
    MemoryTrace trace = new MemoryTrace();
    TraceFormatException e = assertThrows(TraceFormatException.class,
        () -> new ChromeReader().read(cut, trace, ReadOptions.STRICT));
    assertTrue(e.getMessage().startsWith(cut + ":1: column "), e.getMessage());
    assertTrue(e.getMessage().contains("the JSON is cut"), e.getMessage());
    assertTrue(trace.states.isEmpty() && trace.producers.isEmpty(),
        "nothing is written before the file is read to its end");
  }

  @Test
  void malformedEventNamesItsLine() throws IOException {
    Path file = dir.resolve("bad.json");
    Files.writeString(file, "{\"traceEvents\":[\n{\"ph\":\"X\",\"ts\":1,\"dur\":2},\n"
        + "{\"ts\":1,\"dur\":2}\n]}");
    TraceFormatException e = assertThrows(TraceFormatException.class,
        () -> new ChromeReader().read(file, new MemoryTrace(), ReadOptions.STRICT));
    assertEquals(file + ":3: column 16: event without a one-letter \"ph\"", e.getMessage());
    MemoryTrace lenient = new MemoryTrace();
    new ChromeReader().read(file, lenient, new ReadOptions(true, b -> { }));
    assertEquals(1, lenient.states.size());
    assertEquals(List.of("1 × skipped: event without a one-letter \"ph\""), lenient.warnings);
  }

  /** Seeded: every time the reader returns is the double Double.parseDouble gives its text. */
  @Test
  void timesAreReadToTheNearestDouble() throws IOException {
    long seed = 20261122;
    java.util.Random random = new java.util.Random(seed);
    StringBuilder json = new StringBuilder("{\"traceEvents\":[");
    List<String> texts = new java.util.ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      String text = switch (i % 4) {
        case 0 -> Long.toString(random.nextLong() >>> random.nextInt(64));
        case 1 -> random.nextInt(1_000_000_000) + "." + String.format("%06d", random.nextInt(1_000_000));
        case 2 -> Double.toString(random.nextDouble() * Math.pow(10, random.nextInt(30) - 10));
        default -> random.nextInt(10_000) + "." + random.nextInt(1000) + "e" + (random.nextInt(40) - 20);
      };
      texts.add(text);
      json.append(i > 0 ? "," : "").append("{\"ph\":\"i\",\"pid\":1,\"tid\":1,\"name\":\"e\",\"ts\":").append(text).append('}');
    }
    Path file = dir.resolve("times.json");
    Files.writeString(file, json.append("]}").toString());
    MemoryTrace trace = new MemoryTrace();
    new ChromeReader().read(file, trace, ReadOptions.STRICT);
    List<Double> read = trace.events.stream().map(e -> e.time()).sorted().toList();
    List<Double> expected = texts.stream().map(Double::parseDouble).sorted().toList();
    assertEquals(expected, read, "seed " + seed);
  }

  /** Issue 14's findings: each gets one line naming the file and where, never a stack trace. */
  @Test
  void hostileJsonIsRefusedWithItsPlace() throws IOException {
    String deep = "{\"traceEvents\":[{\"ph\":\"i\",\"ts\":1,\"args\":" + "[".repeat(10_000) + "]".repeat(10_000) + "}]}";
    assertRefused(deep, ": more than 200 levels of JSON nesting: not a trace this tool expects; if it is one, raise the "
        + "limit with OCELOTL_JAVA_OPTS=-Docelotl.maxJsonNesting=N");
    assertRefused("{\"traceEvents\":[{\"ph\":\"i\",\"ts\":1e999}]}", ":1: column 32: number 1e999 is out of the range of a double");
    assertRefused("{\"traceEvents\":[{\"ph\":\"i\",\"ts\":--10}]}", ":1: column ");
    assertRefused("{\"traceEvents\":[{\"ph\":\"i\",\"ts\":\"10\"}]}", "expected a number, found a string");
    Path bytes = Files.write(dir.resolve("hostile.json"), new byte[] {0, 0, ']', 0, 0}); // found by fuzzing
    assertEquals(bytes + ": expected JSON text (UTF-8, UTF-16 or UTF-32), found bytes that are none: Unsupported UCS-4 "
        + "endianness (2143) detected", assertThrows(TraceFormatException.class,
            () -> new ChromeReader().read(bytes, new MemoryTrace(), ReadOptions.STRICT)).getMessage());
  }

  private void assertRefused(String json, String fragment) throws IOException {
    Path file = dir.resolve("hostile.json");
    Files.writeString(file, json);
    TraceFormatException e = assertThrows(TraceFormatException.class,
        () -> new ChromeReader().read(file, new MemoryTrace(), ReadOptions.STRICT));
    assertTrue(e.getMessage().startsWith(file + ":1: column "), e.getMessage());
    assertTrue(e.getMessage().contains(fragment), e.getMessage());
    assertTrue(e.getMessage().length() < 400, "one readable line: " + e.getMessage().length());
  }

  @Test
  void sniffsTraceEventJsonOnly() {
    Path any = Path.of("x");
    assertTrue(ChromeReader.sniff("{\"traceEvents\":[".getBytes(StandardCharsets.UTF_8)));
    assertTrue(ChromeReader.sniff(" [ {\"ph\":\"X\"".getBytes(StandardCharsets.UTF_8)));
    assertFalse(ChromeReader.sniff("[1,2]".getBytes(StandardCharsets.UTF_8)));
    assertFalse(ChromeReader.sniff("%EventDef".getBytes(StandardCharsets.UTF_8)));
  }
}
