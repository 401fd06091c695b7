package org.ocelotl.format.paje;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.ocelotl.model.EventCategory;
import org.ocelotl.trace.ReadOptions;
import org.ocelotl.trace.TraceFormatException;
import org.ocelotl.trace.TraceSink;

/**
 * A plain Pajé trace read by several threads into one sink, which receives exactly the calls of
 * the sequential read, in the same order (so a store writer writes the same bytes): docs/decisions/029.
 *
 * <p>Each of the {@code parts} threads reads the whole file and interprets its share of the lines
 * ({@link PajeImport#partOf}: the definitions, and the lines of its containers and links), sending
 * what its read gives, each call tagged with the trace line that made it, into a queue of {@link
 * Block}s. The caller's thread merges the parts' calls by line — a line's calls all come from one
 * part, and the calls that close the trace come in producer order — and passes them on: a type
 * gets the id of its first declaration in the trace (a part numbers the types it saw), a producer
 * is declared once, and the first failure in line order is the one thrown, with its line.
 *
 * <p>Every thread tokenizes every line: what it saves is the rest of the work (dates, names,
 * stacks, values, links), about two thirds of the sequential read's CPU on the traces we measured,
 * so the gain levels off as threads are added (the decision says how far).
 */
final class PajeParallel {
  /** A smaller file is read by one thread: the threads' start and the merge would cost more than they save. */
  static final long MIN_BYTES = 16L << 20;
  /**
   * Every part tokenizes every line and looks its container up, about 40 % of the sequential read's
   * CPU on the seed trace (JFR, docs/decisions/029): a part never costs less than that, so parts
   * beyond four would add CPU for little (1 / (0.4 + 0.6 / 4) = 1.8× the sequential reading thread
   * at four, 2.2× at sixteen).
   */
  static final int MAX_PARTS = 4;

  /**
   * The parts for {@code processors} (2 or more): one processor is left to the caller's thread, which
   * merges the parts' calls into the sink (for an import, the store writer's checks and appends), up
   * to {@link #MAX_PARTS}. On two processors that is one part: the read is a pipeline, the parsing on
   * one core and the merge and the store on the other, which took 1.4× less CPU than two parts
   * tokenizing every line each (docs/decisions/029, "Two processors").
   */
  static int parts(int processors) {
    return Math.max(1, Math.min(MAX_PARTS, processors - 1));
  }
  /** Keys of the calls that close the trace: this plus the producer, above every line number. */
  private static final long FINISH = Long.MAX_VALUE / 2;
  /** The key of a part's leftovers and of a failure while closing: before {@link #FINISH}. */
  private static final long CLOSING = FINISH - 1;
  private static final int BLOCK = 4096;
  private static final int BLOCKS_PER_PART = 4;

  private PajeParallel() {}

  /** Reads {@code file} (plain text, not gzip'd) into {@code sink} with {@code parts} threads; strict reads only. */
  static void read(Path file, TraceSink sink, ReadOptions options, int parts) throws IOException {
    if (options.lenient()) {
      throw new IllegalArgumentException("a lenient read counts skipped lines per kind in line order: read it sequentially");
    }
    Shared shared = new Shared(parts);
    Part[] part = new Part[parts];
    Thread[] threads = new Thread[parts];
    for (int p = 0; p < parts; p++) {
      part[p] = new Part(file, p, parts, options, shared);
      threads[p] = new Thread(part[p]::run, "ocelotl-paje-" + p);
      threads[p].setDaemon(true);
      threads[p].start();
    }
    try {
      new Merge(file.toString(), part, sink).run();
      sink.end(shared.start, shared.end, "s");
    } finally {
      shared.cancelled = true;
      for (Thread thread : threads) {
        try {
          thread.join();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("import interrupted");
        }
      }
    }
  }

  /** What the parts share: whether to stop, and the trace's bounds once every part has read its lines. */
  private static final class Shared {
    final CountDownLatch linesRead;
    volatile boolean cancelled;
    volatile boolean failed;
    private double first = Double.POSITIVE_INFINITY;
    private double last = Double.NEGATIVE_INFINITY;
    /** The bounds the sequential read gives: [0, 0] when no line has a date. */
    double start;
    double end;

    Shared(int parts) {
      linesRead = new CountDownLatch(parts);
    }

    synchronized void linesRead(double partFirst, double partLast, boolean ok) {
      first = Math.min(first, partFirst);
      last = Math.max(last, partLast);
      failed |= !ok;
      linesRead.countDown();
    }

    /** The trace's bounds once every part read its lines; false when one failed. */
    boolean awaitBounds() throws InterruptedIOException {
      try {
        linesRead.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("import interrupted");
      }
      synchronized (this) {
        start = first == Double.POSITIVE_INFINITY ? 0 : first;
        end = last == Double.NEGATIVE_INFINITY ? 0 : last;
      }
      return !failed;
    }
  }

  /** Thrown in a part's thread when the merge stopped (a failure elsewhere): it ends quietly. */
  private static final class Cancelled extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Cancelled() {
      super(null, null, false, false);
    }
  }

  // ---------------------------------------------------------------- what a part sends

  private static final byte PRODUCER = 1;
  private static final byte PRODUCER_END = 2;
  private static final byte TYPE = 3;
  private static final byte STATE = 4;
  private static final byte EVENT = 5;
  private static final byte VARIABLE = 6;
  private static final byte LINK = 7;
  private static final byte WARNING = 8;
  /** Nothing below the key is still to come from this part. */
  private static final byte PROGRESS = 9;
  private static final byte LEFTOVERS = 10;
  private static final byte FAILURE = 11;
  private static final byte DONE = 12;

  /** Calls of one part, in its order, as parallel columns; recycled between the part and the merge. */
  private static final class Block {
    final byte[] kind = new byte[BLOCK];
    final long[] key = new long[BLOCK];
    final int[] i0 = new int[BLOCK];
    final int[] i1 = new int[BLOCK];
    final int[] i2 = new int[BLOCK];
    final int[] i3 = new int[BLOCK];
    final double[] d0 = new double[BLOCK];
    final double[] d1 = new double[BLOCK];
    final double[] d2 = new double[BLOCK];
    final Object[] object = new Object[BLOCK];
    int size;

    int add(byte k, long at) {
      int i = size++;
      kind[i] = k;
      key[i] = at;
      return i;
    }
  }

  /** One thread's read: the sink of its {@link PajeImport}, sending the calls into blocks. */
  private static final class Part implements TraceSink {
    final BlockingQueue<Block> full = new ArrayBlockingQueue<>(BLOCKS_PER_PART);
    final BlockingQueue<Block> free = new ArrayBlockingQueue<>(BLOCKS_PER_PART);
    private final Path file;
    private final int part;
    private final int parts;
    private final ReadOptions options;
    private final Shared shared;
    private Block block;
    private LineScanner lines;
    /** Calls are keyed by their line until the trace closes, then by their producer. */
    private boolean closing;

    Part(Path file, int part, int parts, ReadOptions options, Shared shared) {
      this.file = file;
      this.part = part;
      this.parts = parts;
      this.options = options;
      this.shared = shared;
      for (int i = 1; i < BLOCKS_PER_PART; i++) {
        free.add(new Block());
      }
      block = new Block();
    }

    void run() {
      try (PajeReader.CountingInputStream raw = new PajeReader.CountingInputStream(new ReadAhead(file))) {
        long[] reported = {0};
        lines = new LineScanner(raw, () -> refilled(raw, reported));
        PajeImport read = new PajeImport(file.toString(), this, options, lines).partOf(part, parts);
        boolean ok = false;
        try {
          read.readLines();
          // Handed over before waiting for the other parts: the merge needs it to reach their lines.
          add(PROGRESS, lines.lineNumber());
          hand();
          ok = true;
        } finally {
          shared.linesRead(read.firstTime(), read.lastTime(), ok);
        }
        if (shared.awaitBounds()) { // else a part failed, which the merge reports
          closing = true;
          PajeImport.Leftovers left = read.withBounds(shared.start, shared.end).finish(false);
          block.object[add(LEFTOVERS, CLOSING)] = left;
          if (part == 0) {
            options.bytesRead().accept(raw.count);
          }
        }
      } catch (Cancelled quiet) {
        return;
      } catch (LineScanner.LineTooLongException e) {
        failed(e.line, PajeReader.tooLong(file.toString(), e));
      } catch (Throwable t) {
        failed(closing ? CLOSING : lines == null ? 0 : lines.lineNumber(), t);
      } finally {
        if (lines == null) {
          shared.linesRead(Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, false);
        }
      }
      try {
        add(DONE, Long.MAX_VALUE);
        hand();
      } catch (Cancelled quiet) {
        // the merge stopped
      }
    }

    private void failed(long line, Throwable t) {
      try {
        block.object[add(FAILURE, line)] = t;
      } catch (Cancelled quiet) {
        // the merge stopped
      }
    }

    /** After each read from the file: progress (part 0), and a block handed over so the merge sees this part advance. */
    private void refilled(PajeReader.CountingInputStream raw, long[] reported) {
      if (part == 0 && raw.count - reported[0] >= PajeReader.PROGRESS_STEP) {
        reported[0] = raw.count;
        options.bytesRead().accept(raw.count);
      }
      if (lines != null) {
        add(PROGRESS, lines.lineNumber());
        hand();
      }
    }

    private long key(int producer) {
      return closing ? FINISH + producer : lines.lineNumber();
    }

    private int add(byte kind, long key) {
      if (block.size == BLOCK) {
        hand();
      }
      return block.add(kind, key);
    }

    /** Hands the block to the merge and takes an empty one, giving up when the merge stopped. */
    private void hand() {
      try {
        while (!full.offer(block, 20, TimeUnit.MILLISECONDS)) {
          checkCancelled();
        }
        Block next;
        while ((next = free.poll(20, TimeUnit.MILLISECONDS)) == null) {
          checkCancelled();
        }
        block = next;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new Cancelled();
      }
      checkCancelled();
    }

    private void checkCancelled() {
      if (shared.cancelled) {
        throw new Cancelled();
      }
    }

    @Override
    public void producer(int id, String name, String kind, int parent, double created) {
      int i = add(PRODUCER, key(id));
      block.i0[i] = id;
      block.i1[i] = parent;
      block.d0[i] = created;
      block.object[i] = new String[] {name, kind};
    }

    @Override
    public void producerEnd(int id, double destroyed) {
      int i = add(PRODUCER_END, key(id));
      block.i0[i] = id;
      block.d0[i] = destroyed;
    }

    @Override
    public void eventType(int id, String name, EventCategory category, String group, String color) {
      int i = add(TYPE, lines.lineNumber());
      block.object[i] = new PajeSplit.Declaration(id, name, category, group, color, lines.lineNumber());
    }

    @Override
    public void state(int producer, int type, double start, double end, int depth, int outer) {
      int i = add(STATE, key(producer));
      block.i0[i] = producer;
      block.i1[i] = type;
      block.i2[i] = depth;
      block.i3[i] = outer;
      block.d0[i] = start;
      block.d1[i] = end;
    }

    @Override
    public void event(int producer, int type, double time) {
      int i = add(EVENT, key(producer));
      block.i0[i] = producer;
      block.i1[i] = type;
      block.d0[i] = time;
    }

    @Override
    public void variable(int producer, int type, double time, double value) {
      int i = add(VARIABLE, key(producer));
      block.i0[i] = producer;
      block.i1[i] = type;
      block.d0[i] = time;
      block.d1[i] = value;
    }

    @Override
    public void link(int type, int from, int to, double start, double end, double volume) {
      int i = add(LINK, lines.lineNumber());
      block.i0[i] = type;
      block.i1[i] = from;
      block.i2[i] = to;
      block.d0[i] = start;
      block.d1[i] = end;
      block.d2[i] = volume;
    }

    @Override
    public void warning(String message) {
      block.object[add(WARNING, lines.lineNumber())] = message;
    }

    @Override
    public void end(double start, double end, String timeUnit) {
      throw new AssertionError("a part does not end the trace"); // finish(false) never calls it
    }
  }

  // ---------------------------------------------------------------- the merge

  /** The caller's thread: the parts' calls in line order into the sink. */
  private static final class Merge {
    private final String file;
    private final Part[] parts;
    private final TraceSink sink;
    private final Block[] head;
    private final int[] next;
    private final boolean[] done;
    /** Per part, its type ids to the trace's (-1: not declared yet). */
    private final int[][] typeOf;
    private final Map<String, Integer> types = new HashMap<>();
    /** Link types already warned about: each part warns once per type, the trace once. */
    private final Set<String> linkWarnings = new HashSet<>();
    private PajeImport.Leftovers leftovers = new PajeImport.Leftovers(0, Long.MAX_VALUE, 0, Long.MAX_VALUE);

    Merge(String file, Part[] parts, TraceSink sink) {
      this.file = file;
      this.parts = parts;
      this.sink = sink;
      head = new Block[parts.length];
      next = new int[parts.length];
      done = new boolean[parts.length];
      typeOf = new int[parts.length][16];
      for (int[] map : typeOf) {
        java.util.Arrays.fill(map, -1);
      }
    }

    void run() throws IOException {
      int live = parts.length;
      while (live > 0) {
        int least = -1;
        long leastKey = Long.MAX_VALUE;
        long secondKey = Long.MAX_VALUE;
        for (int p = 0; p < parts.length; p++) {
          if (done[p]) {
            continue;
          }
          long key = headKey(p);
          if (least < 0 || key < leastKey) {
            secondKey = leastKey;
            leastKey = key;
            least = p;
          } else if (key < secondKey) {
            secondKey = key;
          }
        }
        // The least part's calls up to the next part's key come before any other's.
        Block b = head[least];
        while (!done[least] && b.key[next[least]] <= secondKey) {
          if (b.kind[next[least]] == FAILURE) {
            throw failure(least, b.key[next[least]]);
          }
          if (!pass(least, b, next[least]++)) {
            done[least] = true;
            live--;
            break;
          }
          if (next[least] == b.size) {
            headKey(least);
            b = head[least];
          }
        }
      }
      leftovers.warnUnended(sink);
      leftovers.warnIgnored(sink);
    }

    /** The key of part {@code p}'s next call, waiting for its next block when needed. */
    private long headKey(int p) throws InterruptedIOException {
      if (head[p] == null || next[p] == head[p].size) {
        if (head[p] != null) {
          head[p].size = 0;
          parts[p].free.add(head[p]);
        }
        try {
          head[p] = parts[p].full.take();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("import interrupted");
        }
        next[p] = 0;
      }
      return head[p].key[next[p]];
    }

    /** Passes call {@code i} of part {@code p} on; false at the part's end. */
    private boolean pass(int p, Block b, int i) throws TraceFormatException {
      try {
        switch (b.kind[i]) {
          case PRODUCER -> {
            if (p == 0) { // every part declares every producer
              String[] names = (String[]) b.object[i];
              sink.producer(b.i0[i], names[0], names[1], b.i1[i], b.d0[i]);
            }
          }
          case PRODUCER_END -> {
            if (p == 0) {
              sink.producerEnd(b.i0[i], b.d0[i]);
            }
          }
          case TYPE -> declare(p, (PajeSplit.Declaration) b.object[i]);
          case STATE -> sink.state(b.i0[i], typeOf[p][b.i1[i]], b.d0[i], b.d1[i], b.i2[i],
              b.i3[i] < 0 ? -1 : typeOf[p][b.i3[i]]);
          case EVENT -> sink.event(b.i0[i], typeOf[p][b.i1[i]], b.d0[i]);
          case VARIABLE -> sink.variable(b.i0[i], typeOf[p][b.i1[i]], b.d0[i], b.d1[i]);
          case LINK -> sink.link(typeOf[p][b.i0[i]], b.i1[i], b.i2[i], b.d0[i], b.d1[i], b.d2[i]);
          case WARNING -> warn((String) b.object[i]);
          case LEFTOVERS -> leftovers = leftovers.plus((PajeImport.Leftovers) b.object[i]);
          case PROGRESS -> { }
          case DONE -> {
            return false;
          }
          default -> throw new AssertionError(b.kind[i]);
        }
      } catch (IllegalArgumentException refused) {
        if (b.key[i] >= CLOSING) {
          throw refused; // as the sequential read, which closes the trace outside its lines' loop
        }
        // The store writer's refusal (a limit, a record it cannot keep), at the line that sent it.
        throw TraceFormatException.atLine(file, b.key[i], refused.getMessage(), lineText(b.key[i]));
      }
      return true;
    }

    /** A part's type gets the id of the type's first declaration in the trace, which comes first here. */
    private void declare(int p, PajeSplit.Declaration type) {
      int id = type.id();
      if (id >= typeOf[p].length) {
        int length = typeOf[p].length;
        typeOf[p] = java.util.Arrays.copyOf(typeOf[p], Math.max(id + 1, 2 * length));
        java.util.Arrays.fill(typeOf[p], length, typeOf[p].length, -1);
      }
      String key = PajeSplit.key(type);
      Integer known = types.get(key);
      if (known == null) {
        known = types.size();
        types.put(key, known);
        sink.eventType(known, type.name(), type.category(), type.group(), type.color());
      }
      typeOf[p][id] = known;
    }

    /**
     * The only warning a read gives while reading lines is that a link type links containers of
     * types it was not declared for, once per link type ("link type LABEL is declared from …"):
     * each part gives it at its own first such link, the trace at the first of all, which comes first here.
     */
    private void warn(String message) {
      int declared = message.indexOf(" is declared from ");
      if (!message.startsWith("link type ") || declared < 0 || linkWarnings.add(message.substring(0, declared))) {
        sink.warning(message);
      }
    }

    /**
     * The failure at the least key: a line's (every part's calls before it were passed on), or,
     * while closing, the one at the earliest line of those the parts give (a link end never matched).
     */
    private IOException failure(int p, long key) throws InterruptedIOException {
      Throwable chosen = (Throwable) head[p].object[next[p]];
      if (key == CLOSING) {
        for (int q = 0; q < parts.length; q++) {
          if (q != p && !done[q] && headKey(q) == CLOSING && head[q].kind[next[q]] == FAILURE) {
            Throwable other = (Throwable) head[q].object[next[q]];
            if (lineOf(other) < lineOf(chosen)) {
              chosen = other;
            }
          }
        }
      }
      if (chosen instanceof IOException io) {
        return io;
      }
      if (chosen instanceof RuntimeException runtime) {
        throw runtime;
      }
      if (chosen instanceof Error error) {
        throw error;
      }
      return new IOException(chosen);
    }

    /** The line of a failure "FILE:LINE: …", or the largest number when it names none. */
    private long lineOf(Throwable t) {
      String message = t.getMessage();
      if (message != null && message.startsWith(file + ":")) {
        int from = file.length() + 1;
        int to = message.indexOf(':', from);
        try {
          return Long.parseLong(message.substring(from, to));
        } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
          return Long.MAX_VALUE;
        }
      }
      return Long.MAX_VALUE;
    }

    /** The text of line {@code number} of the trace, for a message: read again, on this rare path. */
    private String lineText(long number) {
      try (ReadAhead in = new ReadAhead(Path.of(file))) {
        LineScanner lines = new LineScanner(in, () -> { });
        while (lines.next()) {
          if (lines.lineNumber() == number) {
            return lines.lineText();
          }
        }
        return null;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
