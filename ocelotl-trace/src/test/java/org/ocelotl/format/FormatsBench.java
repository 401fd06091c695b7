package org.ocelotl.format;

import java.nio.file.Path;
import org.ocelotl.format.chrome.ChromeReader;
import org.ocelotl.format.ctf.CtfReader;
import org.ocelotl.format.jfr.JfrReader;
import org.ocelotl.format.otf2.Otf2Reader;
import org.ocelotl.format.perfetto.PerfettoReader;
import org.ocelotl.format.pjdump.PjDumpReader;
import org.ocelotl.model.EventCategory;
import org.ocelotl.trace.ReadOptions;
import org.ocelotl.trace.TraceReader;
import org.ocelotl.trace.TraceSink;

/**
 * Import throughput of each reader (records written to a sink that only counts them): the median
 * of several runs after one warm-up run. Not a test: run by bench/formats.sh.
 * Arguments: pairs of FORMAT FILE (otf2, chrome, jfr, pjdump, ctf: the metadata file, perfetto).
 */
public final class FormatsBench {
  private static final class CountingSink implements TraceSink {
    long records;

    @Override public void producer(int id, String name, String kind, int parent, double created) { }
    @Override public void producerEnd(int id, double destroyed) { }
    @Override public void eventType(int id, String name, EventCategory category, String group,
        String color) { }
    @Override public void state(int producer, int type, double start, double end, int depth, int outer) {
      records++;
    }
    @Override public void event(int producer, int type, double time) {
      records++;
    }
    @Override public void variable(int producer, int type, double time, double value) {
      records++;
    }
    @Override public void link(int type, int from, int to, double start, double end, double volume) {
      records++;
    }
    @Override public void warning(String message) { }
    @Override public void end(double start, double end, String timeUnit) { }
  }

  public static void main(String[] args) throws Exception {
    for (int i = 0; i + 1 < args.length; i += 2) {
      TraceReader reader = switch (args[i]) {
        case "paje" -> new org.ocelotl.format.paje.PajeReader();
        case "otf2" -> new Otf2Reader();
        case "chrome" -> new ChromeReader();
        case "jfr" -> new JfrReader();
        case "pjdump" -> new PjDumpReader();
        case "ctf" -> new CtfReader();
        case "perfetto" -> new PerfettoReader();
        default -> throw new IllegalArgumentException("unknown format " + args[i]);
      };
      Path file = Path.of(args[i + 1]);
      long records = 0;
      reader.read(file, new CountingSink(), ReadOptions.STRICT); // warm-up
      java.util.List<Double> times = new java.util.ArrayList<>();
      long deadline = System.nanoTime() + 5_000_000_000L;
      while (times.size() < 3 || (System.nanoTime() < deadline && times.size() < 15)) {
        CountingSink sink = new CountingSink();
        long start = System.nanoTime();
        reader.read(file, sink, ReadOptions.STRICT);
        times.add((System.nanoTime() - start) / 1e9);
        records = sink.records;
      }
      java.util.Collections.sort(times);
      double median = times.get(times.size() / 2);
      System.out.printf("%-7s %-40s %10d records  %8.1f ms  %12.0f records/s  (median of %d)%n",
          args[i], file.getFileName(), records, median * 1e3, records / median, times.size());
    }
  }
}
