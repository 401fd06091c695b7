package org.ocelotl.export;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.ocelotl.model.EventCategory;
import org.ocelotl.query.RecordQuery;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.TraceStore;

/**
 * The part of a trace a selection covers, ready to be written as a trace of its own
 * ({@code ocelotl export}, docs/selections.md): the containers that hold its records (with
 * their ancestors and the far ends of its links), their lifetimes cut to the window, and the
 * records cut to the window the way a reader clipping pj_dump's rows would cut them — a state,
 * variable step or link overlapping [from, to) keeps [max(start, from), min(end, to)], an
 * event at from ≤ t &lt; to is kept as is.
 *
 * <p>The records are held in memory (one small object each): an export is of a selection, and a
 * Pajé file must be written in time order across every producer.
 *
 * @param containers every exported producer but the root, parents first
 * @param records    the clipped records, in the store's chunk order (for one variable, the order of its changes)
 */
public record SubTrace(TraceStore store, double from, double to, List<Container> containers,
    List<RecordQuery.Record> records) {

  /**
   * One exported producer.
   *
   * @param depth 1 for a child of the root
   * @param start creation, not before the window
   * @param end   destruction, or the trace's end, not after the window
   */
  public record Container(int producer, int parent, int depth, double start, double end) {}

  /** The formats a part of a trace is written in, by the name {@code --format} and the URL's {@code format} take. */
  public static final List<String> FORMATS = List.of("paje", "csv", "chrome");

  /**
   * Writes this part of the trace in {@code format} (one of {@link #FORMATS}): the command line's
   * {@code export} and the page's {@code /api/subtrace} write the same bytes.
   */
  public void write(String format, java.io.OutputStream out) throws java.io.IOException {
    if (format.equals("chrome")) {
      ChromeTraceWriter.write(this, out);
      return;
    }
    java.io.Writer writer = new java.io.BufferedWriter(new java.io.OutputStreamWriter(out,
        java.nio.charset.StandardCharsets.UTF_8));
    if (format.equals("paje")) {
      PajeTraceWriter.write(this, writer);
    } else {
      PjDumpCsvWriter.write(this, writer);
    }
    writer.flush();
  }

  /** The file name a download of this part takes: the trace's stem, the window, the format's extension. */
  public String fileName(String format) {
    String name = store.metadata().name().replaceAll("(\\.(trace|csv|json|gz))+$", "").replaceAll("[^A-Za-z0-9._-]", "_");
    String extension = switch (format) {
      case "paje" -> ".trace";
      case "chrome" -> ".json";
      default -> ".csv";
    };
    return name + "-" + plain(from) + "-" + plain(to) + extension;
  }

  /** A time as a file name holds it: 3, 0.2, 933302422999, never 9.33302422999E11. */
  private static String plain(double t) {
    return java.math.BigDecimal.valueOf(t).stripTrailingZeros().toPlainString();
  }

  /** @throws IllegalArgumentException naming an unknown producer or type, or an empty window */
  public static SubTrace of(TraceStore store, double from, double to, List<String> producers, List<String> types) {
    StoreMetadata m = store.metadata();
    double start = Double.isNaN(from) ? m.start() : from;
    double end = Double.isNaN(to) ? m.windowEnd() : to;
    if (!(end > start)) {
      throw new IllegalArgumentException("the window needs from < to, got from = " + start + ", to = " + end);
    }
    Set<Integer> kept = RecordQuery.producersNamed(m, producers);
    RecordQuery.Selection query = new RecordQuery.Selection(start, end, kept, RecordQuery.typesNamed(m, types),
        EnumSet.allOf(EventCategory.class), null, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY,
        RecordQuery.Column.START, false, 0, 0);
    List<RecordQuery.Record> records = new ArrayList<>();
    boolean[] exported = new boolean[m.producers().size()];
    for (StoreMetadata.Producer p : m.producers()) {
      exported[p.id()] = (kept == null || kept.contains(p.id())) && lifetimeMeets(m, p, start, end);
    }
    RecordQuery.forEach(store, query, r -> {
      records.add(clip(r, start, end));
      if (r.kind() == EventCategory.LINK) {
        exported[r.producer()] = true; // a link kept by one end needs the other
        exported[r.to()] = true;
      }
    });
    return new SubTrace(store, start, end, containers(m, exported, start, end), List.copyOf(records));
  }

  private static boolean lifetimeMeets(StoreMetadata m, StoreMetadata.Producer p, double from, double to) {
    return p.created() <= to && death(m, p) >= from;
  }

  private static double death(StoreMetadata m, StoreMetadata.Producer p) {
    return Double.isNaN(p.destroyed()) ? m.end() : p.destroyed();
  }

  static RecordQuery.Record clip(RecordQuery.Record r, double from, double to) {
    if (r.kind() == EventCategory.EVENT) {
      return r;
    }
    return new RecordQuery.Record(r.kind(), r.producer(), r.type(), Math.max(r.start(), from), Math.min(r.end(), to),
        r.depth(), r.value(), r.to());
  }

  /** The exported producers and all their ancestors, parents first (depth, then id). */
  private static List<Container> containers(StoreMetadata m, boolean[] exported, double from, double to) {
    int n = m.producers().size();
    int[] depth = new int[n];
    boolean[] shown = Arrays.copyOf(exported, n);
    for (StoreMetadata.Producer p : m.producers()) {
      for (int a = p.parent(); exported[p.id()] && a >= 0; a = m.producers().get(a).parent()) {
        shown[a] = true;
      }
      for (int a = p.parent(); a >= 0; a = m.producers().get(a).parent()) {
        depth[p.id()]++;
      }
    }
    List<Container> containers = new ArrayList<>();
    for (StoreMetadata.Producer p : m.producers()) {
      if (shown[p.id()] && p.parent() >= 0) {
        containers.add(new Container(p.id(), p.parent(), depth[p.id()], Math.max(p.created(), from),
            Math.min(death(m, p), to)));
      }
    }
    containers.sort(java.util.Comparator.comparingInt(Container::depth).thenComparingInt(Container::producer));
    return List.copyOf(containers);
  }

  /** The root producer's id: Pajé's container "0". */
  public int root() {
    for (StoreMetadata.Producer p : store.metadata().producers()) {
      if (p.parent() < 0) {
        return p.id();
      }
    }
    throw new IllegalStateException("a store always has a root");
  }
}
