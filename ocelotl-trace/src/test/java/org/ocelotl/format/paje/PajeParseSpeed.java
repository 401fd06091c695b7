package org.ocelotl.format.paje;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import org.ocelotl.model.EventCategory;
import org.ocelotl.trace.ReadOptions;
import org.ocelotl.trace.TraceSink;

/**
 * Parse speed of {@link PajeReader} into a sink that only counts, by hand (not a test):
 * {@code java -cp ... org.ocelotl.format.paje.PajeParseSpeed TRACE [REPEATS]}. Prints MB/s and
 * records/s per run, and the CPU seconds of the reading thread (the figure that holds on a
 * loaded machine, where wall time does not); the first runs include JIT warm-up.
 */
public final class PajeParseSpeed {
  private PajeParseSpeed() {}

  public static void main(String[] args) throws Exception {
    Path trace = Path.of(args[0]);
    int repeats = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    long bytes = Files.size(trace);
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    for (int run = 1; run <= repeats; run++) {
      CountingSink sink = new CountingSink();
      long t0 = System.nanoTime();
      long cpu0 = threads.getCurrentThreadCpuTime();
      new PajeReader().read(trace, sink, ReadOptions.STRICT);
      double cpu = (threads.getCurrentThreadCpuTime() - cpu0) / 1e9;
      double seconds = (System.nanoTime() - t0) / 1e9;
      System.out.printf("run %d: %.3f s, %.3f s CPU, %.1f MB/s, %d records (%.2f M records/s), %d warnings%n",
          run, seconds, cpu, bytes / 1e6 / seconds, sink.records, sink.records / 1e6 / seconds,
          sink.warnings);
    }
  }

  /** Counts what arrives, so the JIT cannot drop the work. */
  static final class CountingSink implements TraceSink {
    long records;
    long warnings;
    double checksum;

    @Override
    public void producer(int id, String name, String kind, int parent, double created) {
      records++;
    }

    @Override
    public void producerEnd(int id, double destroyed) {
      records++;
    }

    @Override
    public void eventType(int id, String name, EventCategory category, String group,
        String color) {
      records++;
    }

    @Override
    public void state(int producer, int type, double start, double end, int depth, int outer) {
      records++;
      checksum += end - start;
    }

    @Override
    public void event(int producer, int type, double time) {
      records++;
    }

    @Override
    public void variable(int producer, int type, double time, double value) {
      records++;
      checksum += value;
    }

    @Override
    public void link(int type, int from, int to, double start, double end, double volume) {
      records++;
    }

    @Override
    public void warning(String message) {
      warnings++;
      System.out.println("warning: " + message);
    }

    @Override
    public void end(double start, double end, String timeUnit) {
      records++;
    }
  }
}
