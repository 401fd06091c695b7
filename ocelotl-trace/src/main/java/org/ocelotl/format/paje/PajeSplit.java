package org.ocelotl.format.paje;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.ocelotl.format.RecordingInput;
import org.ocelotl.format.RecordingOutput;
import org.ocelotl.format.SplitRecords;
import org.ocelotl.model.EventCategory;
import org.ocelotl.split.LineBatch;
import org.ocelotl.split.RangeSplit;
import org.ocelotl.split.RoutedLines;
import org.ocelotl.trace.ReadOptions;
import org.ocelotl.trace.TraceFormatException;
import org.ocelotl.trace.TraceSink;

/**
 * A Pajé trace read in parallel over byte ranges (the Spark import, docs/scale-out.md), with the
 * local reader's own interpretation ({@link PajeImport}) so that the records are those of a
 * sequential read. The steps, each a method here, the engine only moving data between them:
 *
 * <ol>
 *   <li>{@link #open}: the driver reads the header (the {@code %EventDef} block up to the first
 *       event line) and the body's first byte.
 *   <li>{@link #summarize}, per byte range of the body: its line count, its dates' bounds, and its
 *       definition lines (types, values, containers created or destroyed: what later lines name).
 *   <li>{@link #plan}: the driver numbers every range's lines, gathers the definition lines in
 *       trace order and decides, for each container and each link, which partition interprets it.
 *   <li>{@link #route}, per byte range: each event line with its trace line number and partition.
 *   <li>{@link #interpret}, per partition, its lines sorted by number: the definition lines and
 *       its own lines, in trace order, go through {@link PajeImport} into a {@link Recording}.
 *       A container's states and variables, and a link's two ends, are all in one partition, in
 *       trace order: the stacks, values and matching are those of the sequential read, and states
 *       left open are closed at the trace's end, known from the summaries.
 *   <li>{@link #typeOrder}: the driver numbers the event types of every partition in order of
 *       first declaration in the trace (the sequential reader's order).
 *   <li>{@link #assemblePart}, per partition: its recording replayed into a store of its own with
 *       those ids; the partitions' stores hold every producer and type and, between them, every
 *       record once; their warnings are {@link org.ocelotl.split.SplitWarnings#merged}.
 * </ol>
 *
 * <p>What this does not do: {@code %EventDef} lines after the first event line are refused (the
 * ranges are classified with the header's definitions); the read is strict (a lenient read's
 * counts of skipped lines would be per partition).
 */
public final class PajeSplit
    implements RangeSplit<PajeSplit.Summary, PajeSplit.Plan, PajeSplit.Recording, List<PajeSplit.Declaration>> {
  private static final long serialVersionUID = 1L;

  private final String file;
  private final List<String> header;
  private final long bodyStart;
  private transient volatile Map<String, EventDefinition> definitions;
  private transient volatile DefinitionIds definitionIds;

  private PajeSplit(String file, List<String> header, long bodyStart) {
    this.file = file;
    this.header = header;
    this.bodyStart = bodyStart;
  }

  /** The trace's name in messages. */
  @Override
  public String file() {
    return file;
  }

  /**
   * Reads the header of the trace {@code in} (its text, decompressed): every line up to the first
   * that is neither a {@code %} line, a comment nor blank.
   *
   * @param file the trace's name in messages
   */
  public static PajeSplit open(InputStream in, String file) throws IOException {
    List<String> header = new ArrayList<>();
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    long offset = 0;
    long lineStart = 0;
    int b;
    while ((b = in.read()) >= 0) {
      offset++;
      if (b != '\n') {
        line.write(b);
        continue;
      }
      String text = line.toString(StandardCharsets.UTF_8);
      if (!isHeader(text)) {
        return new PajeSplit(file, header, lineStart);
      }
      header.add(text);
      line.reset();
      lineStart = offset;
    }
    String last = line.toString(StandardCharsets.UTF_8);
    if (!last.isEmpty() && !isHeader(last)) {
      return new PajeSplit(file, header, lineStart);
    }
    if (!last.isEmpty()) {
      header.add(last);
    }
    return new PajeSplit(file, header, offset);
  }

  private static boolean isHeader(String line) {
    String text = line.strip();
    return text.isEmpty() || text.startsWith("%") || text.startsWith("#");
  }

  /** The byte offset of the body's first line (in the decompressed text): where the ranges start. */
  @Override
  public long bodyStart() {
    return bodyStart;
  }

  /**
   * The lines of the byte range [start, end) of the text {@code in} holds from {@code start - 1}
   * on (from {@code start} for the body's first range): a range owns the lines that start in it,
   * so it skips the end of a line begun before and finishes its own last line after {@code end}.
   */
  @Override
  public InputStream range(InputStream in, long start, long end, boolean first) throws IOException {
    long position = first ? start : start - 1;
    if (!first) {
      int b;
      do {
        b = in.read();
        position++;
      } while (b >= 0 && b != '\n');
    }
    // A line begun before the range that runs past its end leaves the range no line of its own.
    return new RangeStream(in, end - position);
  }

  /** What a range holds that the plan needs: its lines, the bounds of its dates, its definitions. */
  public record Summary(long lines, double firstTime, double lastTime, List<NumberedLine> definitionLines)
      implements Serializable {}

  /** A line and its number (in the range, or in the trace). */
  public record NumberedLine(long number, String text) implements Serializable {}

  /** Pass one over a range (its lines, as {@link #range} gives them). */
  @Override
  public Summary summarize(InputStream range) throws IOException {
    LineScanner lines = new LineScanner(range, () -> { });
    double first = Double.POSITIVE_INFINITY;
    double last = Double.NEGATIVE_INFINITY;
    List<NumberedLine> found = new ArrayList<>();
    while (lines.next()) {
      EventDefinition def = definition(lines);
      if (def == null) {
        continue;
      }
      if (isDefinition(def.kind)) {
        found.add(new NumberedLine(lines.lineNumber(), lines.lineText()));
      }
      int time = def.position(Field.TIME);
      if (time >= 0 && lines.fieldCount() == def.fieldCount() + 1) {
        double t = DecimalParser.parse(lines.buffer(), lines.start(time + 1), lines.end(time + 1));
        if (Double.isFinite(t)) {
          first = Math.min(first, t);
          last = Math.max(last, t);
        }
      }
    }
    return new Summary(lines.lineNumber(), first, last, found);
  }

  /**
   * What every partition needs: the definition lines in trace order, the number of each range's
   * first line, the trace's bounds, and where containers and links go.
   */
  @Override
  public Plan plan(List<Summary> ranges, int partitions) throws IOException {
    List<NumberedLine> definitionLines = new ArrayList<>();
    for (int i = 0; i < header.size(); i++) {
      definitionLines.add(new NumberedLine(i + 1, header.get(i)));
    }
    long[] before = new long[ranges.size()];
    long number = header.size();
    double first = Double.POSITIVE_INFINITY;
    double last = Double.NEGATIVE_INFINITY;
    for (int r = 0; r < ranges.size(); r++) {
      Summary s = ranges.get(r);
      before[r] = number;
      for (NumberedLine line : s.definitionLines()) {
        definitionLines.add(new NumberedLine(number + line.number(), line.text()));
      }
      number += s.lines();
      first = Math.min(first, s.firstTime());
      last = Math.max(last, s.lastTime());
    }
    Map<String, Integer> containers = new HashMap<>();
    Map<String, Integer> types = new HashMap<>();
    containers.put("0", 0);
    types.put("0", 0);
    int containerCount = 1;
    int typeCount = 1;
    // Aliases are looked up before names (as PajeImport does): names are kept only where no alias is.
    Map<String, Integer> containerNames = new HashMap<>();
    Map<String, Integer> typeNames = new HashMap<>();
    LineScanner lines = scanner(definitionLines.stream().map(NumberedLine::text).toList());
    while (lines.next()) {
      EventDefinition def = lines.buffer()[lines.start(0)] == '%' ? null : definition(lines);
      boolean container = def != null && def.kind == EventKind.CREATE_CONTAINER;
      boolean type = def != null && def.kind.name().startsWith("DEFINE_") && def.kind != EventKind.DEFINE_ENTITY_VALUE;
      if ((!container && !type) || lines.fieldCount() != def.fieldCount() + 1) {
        continue;
      }
      String name = lines.field(1 + def.position(Field.NAME));
      String alias = def.position(Field.ALIAS) < 0 ? name : lines.field(1 + def.position(Field.ALIAS));
      if (container) {
        containers.putIfAbsent(alias, containerCount);
        containerNames.putIfAbsent(name, containerCount++);
      } else {
        types.putIfAbsent(alias, typeCount);
        typeNames.putIfAbsent(name, typeCount++);
      }
    }
    containerNames.forEach(containers::putIfAbsent);
    typeNames.forEach(types::putIfAbsent);
    return new Plan(definitionLines, before, first, last, containers, types, partitions);
  }

  /**
   * The driver's decisions, the same for every task.
   *
   * @param before     per range, the number of the line before its first
   * @param containers container aliases and names to container numbers (creation order)
   * @param types      type aliases and names to type numbers (definition order)
   */
  public record Plan(List<NumberedLine> definitionLines, long[] before, double firstTime, double lastTime,
      Map<String, Integer> containers, Map<String, Integer> types, int partitions) implements Serializable {}

  /**
   * Pass two over range {@code r}: each event line that is not a definition, with its number in
   * the trace, for the partition of its container (states, events, variables) or of its link type
   * and key (both ends of a link); a line the plan cannot place goes to partition 0, whose read
   * will refuse it with its line number. Lines are handed out one at a time, never held; the range
   * is closed after its last line.
   */
  @Override
  public Routed route(InputStream range, int r, Plan plan) throws IOException {
    return new Routed(range, new LineScanner(range, () -> { }), plan.before()[r], plan);
  }

  /** The routed lines of a range, one at a time. */
  public final class Routed implements RoutedLines {
    private final InputStream range;
    private final LineScanner lines;
    private final long before;
    private final Plan plan;
    private int partition;

    /** The plan's container aliases and names, looked up by their bytes (no string per line). */
    private final NameTable containers = new NameTable();

    private Routed(InputStream range, LineScanner lines, long before, Plan plan) {
      this.range = range;
      this.lines = lines;
      this.before = before;
      this.plan = plan;
      plan.containers().forEach((name, number) -> {
        byte[] key = name.getBytes(StandardCharsets.UTF_8);
        containers.put(0, key, 0, key.length, number);
      });
    }

    /** Moves to the next line to route; false at the end of the range. */
    @Override
    public boolean next() throws IOException {
      while (lines.next()) {
        EventDefinition def = definition(lines);
        if (def == null || !isDefinition(def.kind)) {
          partition = partition(def);
          return true;
        }
      }
      range.close();
      return false;
    }

    @Override
    public int partition() {
      return partition;
    }

    /** The line's number in the trace. */
    public long number() {
      return before + lines.lineNumber();
    }

    /** Adds the line, with its number in the trace, to {@code batch}. */
    @Override
    public void addTo(LineBatch batch) {
      batch.add(number(), lines.buffer(), lines.lineStart(), lines.lineLength());
    }

    private int partition(EventDefinition def) {
      if (def == null || lines.fieldCount() != def.fieldCount() + 1) {
        return 0;
      }
      if (def.kind == EventKind.START_LINK || def.kind == EventKind.END_LINK) {
        Integer type = plan.types().get(lines.field(1 + def.position(Field.TYPE)));
        String key = lines.field(1 + def.position(Field.KEY));
        return type == null ? 0 : Math.floorMod(31 * type + key.hashCode(), plan.partitions());
      }
      int field = 1 + def.position(Field.CONTAINER);
      int container = containers.get(0, lines.buffer(), lines.start(field), lines.end(field));
      return container < 0 ? 0 : container % plan.partitions();
    }
  }

  /**
   * One partition's share of the trace, read: its records with the partition's own event type
   * ids, and where each type was first declared.
   */
  public record Recording(List<Declaration> types, byte[] records) implements Serializable {}

  /** An event type as a partition declared it, with the trace line that declared it. */
  public record Declaration(int id, String name, EventCategory category, String group, String color, long line)
      implements Serializable {}

  /**
   * Reads a partition: the definition lines and its own lines ({@link LineBatch}es whose lines are in
   * trace order, batch after batch) merged in trace order, through the local reader.
   *
   * @throws TraceFormatException as the sequential read would, at the same line
   */
  @Override
  public Recording interpret(Plan plan, Iterator<byte[]> batches) throws IOException {
    Merged merged = new Merged(plan.definitionLines().iterator(), batches);
    LineScanner scanner = new LineScanner(merged, () -> { }, merged::nextNumber);
    Recorder recorder = new Recorder(scanner);
    PajeImport read = new PajeImport(file, recorder, ReadOptions.STRICT, scanner);
    if (plan.firstTime() <= plan.lastTime()) {
      read.withBounds(plan.firstTime(), plan.lastTime());
    }
    read.run();
    return new Recording(recorder.types, recorder.bytes.toByteArray());
  }

  /**
   * The event types of every partition in the order the sequential read numbers them, that of
   * their first declaration in the trace: a type's id is its index here.
   */
  @Override
  public List<Declaration> types(Recording recording) {
    // A copy: the recording's list need not serialise.
    return new ArrayList<>(recording.types());
  }

  @Override
  public List<Declaration> typeOrder(List<List<Declaration>> types) {
    Map<String, Declaration> earliest = new HashMap<>();
    for (List<Declaration> partition : types) {
      for (Declaration d : partition) {
        earliest.merge(key(d), d, (a, b) -> a.line() <= b.line() ? a : b);
      }
    }
    List<Declaration> ordered = new ArrayList<>(earliest.values());
    ordered.sort(Comparator.comparingLong(Declaration::line));
    return ordered;
  }

  /**
   * Replays one partition's recording into {@code sink} as a whole store of its own: every event
   * type of {@code order} (so that every partition's store numbers them alike), every producer
   * (every partition reads every container's creation and destruction), the partition's records
   * and the trace's end (every partition knows it from pass one). The partition's warnings go to
   * {@code warnings}, to be {@link org.ocelotl.split.SplitWarnings#merged} with the other partitions'.
   *
   * @param order the types of every partition, {@link #typeOrder}
   */
  @Override
  public void assemblePart(List<Declaration> order, Recording recording, TraceSink sink, Collection<String> warnings)
      throws IOException {
    Map<String, Integer> ids = new HashMap<>();
    for (Declaration d : order) {
      ids.put(key(d), ids.size());
      sink.eventType(ids.get(key(d)), d.name(), d.category(), d.group(), d.color());
    }
    int[] global = recording.types().stream().sorted(Comparator.comparingInt(Declaration::id)).mapToInt(d -> ids.get(key(d)))
        .toArray();
    double[] end = Recorder.replay(recording.records(), global, sink, warnings);
    sink.end(end[0], end[1], "s");
  }

  /** What makes two declarations one event type: category, group and name, as {@code TypeIds} keys them. */
  static String key(Declaration d) {
    return d.category() + "\u0000" + (d.group() == null ? "" : d.group()) + '\u0000' + d.name();
  }

  // ---------------------------------------------------------------- lines

  private static boolean isDefinition(EventKind kind) {
    return switch (kind) {
      case DEFINE_CONTAINER_TYPE, DEFINE_STATE_TYPE, DEFINE_EVENT_TYPE, DEFINE_VARIABLE_TYPE, DEFINE_LINK_TYPE,
          DEFINE_ENTITY_VALUE, CREATE_CONTAINER, DESTROY_CONTAINER, TRACE_FILE -> true;
      default -> false;
    };
  }

  /**
   * The definition of the line's event, or null for an id the header does not define (the
   * partition's read refuses it); a {@code %} line in the body is refused here.
   */
  private EventDefinition definition(LineScanner lines) throws IOException {
    if (lines.buffer()[lines.start(0)] == '%') {
      throw new TraceFormatException(file + ": a % line after the first event line ('" + lines.lineText()
          + "'): the Spark import needs every %EventDef in the header; import this trace with ocelotl");
    }
    DefinitionIds ids = definitionIds;
    if (ids == null) {
      // Looked up by the id's bytes, with no string made per line (pass one and two see every
      // line); built whole before it is published, for the tasks that share this object.
      NameTable table = new NameTable();
      List<EventDefinition> byId = new ArrayList<>();
      definitions().forEach((id, def) -> {
        byte[] key = id.getBytes(StandardCharsets.UTF_8);
        table.put(0, key, 0, key.length, byId.size());
        byId.add(def);
      });
      definitionIds = ids = new DefinitionIds(table, byId);
    }
    int id = ids.table().get(0, lines.buffer(), lines.start(0), lines.end(0));
    return id < 0 ? null : ids.byId().get(id);
  }

  /** The header's event ids (a table of their bytes) and their definitions. */
  private record DefinitionIds(NameTable table, List<EventDefinition> byId) {}

  /**
   * The header's event definitions by id, parsed again on each executor (a few dozen lines). Only
   * where fields sit matters here: the partitions' reads check the header as the local reader does.
   */
  private Map<String, EventDefinition> definitions() throws IOException {
    if (definitions == null) {
      Map<String, EventDefinition> byId = new HashMap<>();
      LineScanner lines = scanner(header);
      EventDefinition defining = null;
      while (lines.next()) {
        String head = lines.field(0);
        if (head.equals("%EventDef") && lines.fieldCount() == 3) {
          EventKind kind = EventKind.named(lines.field(1));
          defining = kind == null ? null : new EventDefinition(kind, lines.field(2));
        } else if (head.equals("%EndEventDef") && defining != null) {
          byId.putIfAbsent(defining.id, defining);
          defining = null;
        } else if (defining != null && head.equals("%") && lines.fieldCount() == 3) {
          defining.add(lines.field(1));
        } else if (defining != null && lines.fieldCount() == 2) {
          defining.add(head.substring(1));
        }
      }
      definitions = byId;
    }
    return definitions;
  }

  private static LineScanner scanner(List<String> lines) throws IOException {
    return new LineScanner(new ByteArrayInputStream(String.join("\n", lines).getBytes(StandardCharsets.UTF_8)),
        () -> { });
  }

  /** A range's bytes: the first {@code length}, then up to the end of the line they end in. */
  private static final class RangeStream extends InputStream {
    private final InputStream in;
    private long left;
    private boolean done;

    RangeStream(InputStream in, long length) {
      this.in = in;
      this.left = length;
      this.done = length <= 0;
    }

    @Override
    public int read() throws IOException {
      if (done) {
        return -1;
      }
      int b = in.read();
      if (b < 0 || (--left <= 0 && b == '\n')) {
        done = true;
      }
      return b;
    }

    @Override
    public void close() throws IOException {
      in.close();
    }

    @Override
    public int read(byte[] into, int offset, int length) throws IOException {
      if (done) {
        return -1;
      }
      if (left > 0) {
        int n = in.read(into, offset, (int) Math.min(length, left));
        if (n < 0) {
          done = true;
          return -1;
        }
        left -= n;
        if (left == 0 && into[offset + n - 1] == '\n') {
          done = true;
        }
        return n;
      }
      int b = read();
      if (b < 0) {
        return -1;
      }
      into[offset] = (byte) b;
      return 1;
    }
  }

  /** Two sorted line sources merged by number, as text; each line's number queued for the scanner. */
  private static final class Merged extends InputStream {
    private final Iterator<NumberedLine> definitions;
    private final Iterator<byte[]> batches;
    private NumberedLine nextDefinition;
    /** The own lines' batch being read, and the position of its next line (its number first). */
    private byte[] batch = new byte[0];
    private int next;
    /**
     * The line being handed out (a definition's bytes, or a batch's), from {@code position} to
     * {@code end}, then its line end if {@code newline}.
     */
    private byte[] current = new byte[0];
    private int position;
    private int end;
    private boolean newline;
    /** The numbers of the lines handed out that the scanner has not reached yet, in order. */
    private long[] numbers = new long[64];
    private int firstNumber;
    private int numberCount;

    Merged(Iterator<NumberedLine> definitions, Iterator<byte[]> batches) {
      this.definitions = definitions;
      this.batches = batches;
      this.nextDefinition = definitions.hasNext() ? definitions.next() : null;
    }

    /** The number of the next line the scanner reads. */
    long nextNumber() {
      long number = numbers[firstNumber];
      firstNumber = (firstNumber + 1) % numbers.length;
      numberCount--;
      return number;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    /** As many lines as fit (their line ends included), at least a part of one; -1 after the last. */
    @Override
    public int read(byte[] into, int offset, int length) {
      int done = 0;
      while (done < length) {
        if (position < end) {
          int n = Math.min(length - done, end - position);
          System.arraycopy(current, position, into, offset + done, n);
          position += n;
          done += n;
        } else if (newline) {
          into[offset + done++] = '\n';
          newline = false;
        } else if (!advance()) {
          break;
        }
      }
      return done == 0 && length > 0 ? -1 : done;
    }

    /** Moves to the next line in trace order, its number queued; false after the last. */
    private boolean advance() {
      while (next == batch.length && batches.hasNext()) {
        batch = batches.next();
        next = 0;
      }
      boolean own = next < batch.length;
      long ownNumber = own ? LineBatch.number(batch, next) : Long.MAX_VALUE;
      long number;
      if (nextDefinition != null && nextDefinition.number() < ownNumber) {
        number = nextDefinition.number();
        current = nextDefinition.text().getBytes(StandardCharsets.UTF_8);
        position = 0;
        end = current.length;
        nextDefinition = definitions.hasNext() ? definitions.next() : null;
      } else if (own) {
        number = ownNumber;
        current = batch;
        position = next + LineBatch.LINE_HEADER;
        end = position + LineBatch.length(batch, next);
        next = end;
      } else {
        return false;
      }
      newline = true;
      if (numberCount == numbers.length) {
        // By hand: a ring of line numbers, one per line (Spark Pajé import, hot; no ring in fastutil-core).
        long[] grown = new long[numbers.length * 2];
        for (int i = 0; i < numberCount; i++) {
          grown[i] = numbers[(firstNumber + i) % numbers.length];
        }
        numbers = grown;
        firstNumber = 0;
      }
      numbers[(firstNumber + numberCount++) % numbers.length] = number;
      return true;
    }
  }

  /** The sink of a partition's read: its records as bytes, its type declarations with their lines. */
  private static final class Recorder implements TraceSink {
    private static final byte PRODUCER = 'P';
    private static final byte PRODUCER_END = 'D';
    private static final byte LINK = 'L';
    private static final byte WARNING = 'W';
    private static final byte END = 'Z';

    final List<Declaration> types = new ArrayList<>();
    final RecordingOutput bytes = new RecordingOutput();
    private final DataOutputStream out = new DataOutputStream(bytes);
    private final LineScanner lines;

    Recorder(LineScanner lines) {
      this.lines = lines;
    }

    @Override
    public void producer(int id, String name, String kind, int parent, double created) {
      write(() -> {
        out.writeByte(PRODUCER);
        out.writeInt(id);
        out.writeUTF(name);
        out.writeUTF(kind);
        out.writeInt(parent);
        out.writeDouble(created);
      });
    }

    @Override
    public void producerEnd(int id, double destroyed) {
      write(() -> {
        out.writeByte(PRODUCER_END);
        out.writeInt(id);
        out.writeDouble(destroyed);
      });
    }

    @Override
    public void eventType(int id, String name, EventCategory category, String group, String color) {
      types.add(new Declaration(id, name, category, group, color, lines.lineNumber()));
    }

    @Override
    public void state(int producer, int type, double start, double end, int depth, int outer) {
      write(() -> SplitRecords.state(out, producer, type, start, end, depth, outer));
    }

    @Override
    public void event(int producer, int type, double time) {
      write(() -> SplitRecords.event(out, producer, type, time));
    }

    @Override
    public void variable(int producer, int type, double time, double value) {
      write(() -> SplitRecords.variable(out, producer, type, time, value));
    }

    @Override
    public void link(int type, int from, int to, double start, double end, double volume) {
      write(() -> {
        out.writeByte(LINK);
        out.writeInt(type);
        out.writeInt(from);
        out.writeInt(to);
        out.writeDouble(start);
        out.writeDouble(end);
        out.writeDouble(volume);
      });
    }

    @Override
    public void warning(String message) {
      write(() -> {
        out.writeByte(WARNING);
        out.writeUTF(message);
      });
    }

    @Override
    public void end(double start, double end, String timeUnit) {
      write(() -> {
        out.writeByte(END);
        out.writeDouble(start);
        out.writeDouble(end);
      });
    }

    private interface Write {
      void run() throws IOException;
    }

    private static void write(Write write) {
      try {
        write.run();
      } catch (IOException e) {
        throw new UncheckedIOException(e); // a byte array's stream does not fail
      }
    }

    /**
     * Replays a recording into {@code sink}, type ids through {@code global}; warnings into
     * {@code warnings}. Returns the recorded bounds.
     */
    static double[] replay(byte[] recording, int[] global, TraceSink sink, Collection<String> warnings)
        throws IOException {
      RecordingInput in = new RecordingInput(recording);
      double[] bounds = null;
      while (bounds == null) {
        byte kind = in.readByte();
        switch (kind) {
          case PRODUCER -> {
            int id = in.readInt();
            String name = in.readUTF();
            String producerKind = in.readUTF();
            int parent = in.readInt();
            double created = in.readDouble();
            sink.producer(id, name, producerKind, parent, created);
          }
          case PRODUCER_END -> {
            int id = in.readInt();
            double destroyed = in.readDouble();
            sink.producerEnd(id, destroyed);
          }
          case LINK -> sink.link(global[in.readInt()], in.readInt(), in.readInt(), in.readDouble(), in.readDouble(),
              in.readDouble());
          case WARNING -> warnings.add(in.readUTF());
          case END -> bounds = new double[] {in.readDouble(), in.readDouble()};
          default -> {
            if (!SplitRecords.replay(kind, in, global, sink)) {
              throw new IllegalStateException("recording byte " + kind);
            }
          }
        }
      }
      return bounds;
    }
  }
}
