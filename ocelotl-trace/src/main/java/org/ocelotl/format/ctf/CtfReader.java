package org.ocelotl.format.ctf;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.ocelotl.format.TypeIds;
import org.ocelotl.format.ctf.CtfMetadata.EventClass;
import org.ocelotl.model.EventCategory;
import org.ocelotl.primitive.DoubleColumn;
import org.ocelotl.primitive.IntColumn;
import org.ocelotl.trace.ReadOptions;
import org.ocelotl.trace.StateRules;
import org.ocelotl.trace.TraceFormatException;
import org.ocelotl.trace.TraceReader;
import org.ocelotl.trace.TraceSink;

/**
 * Reads a CTF 1.8 trace (LTTng's format) given its {@code metadata} file; the stream files beside
 * it are merged in time order. See docs/formats.md for the mapping:
 * <ul>
 *   <li>producers: a process per {@code vpid} (named by {@code procname}) and a thread per
 *       {@code vtid} under it when events carry those contexts (LTTng's {@code vpid}, {@code vtid},
 *       {@code procname}; kernel traces' {@code pid}/{@code tid}), else one producer per CPU
 *       ({@code cpu_id} of the packet context) or per stream file;
 *   <li>{@code X_entry}/{@code X_exit} events → states {@code X} on the producer's stack, matched
 *       by {@code X} (the kernel's {@code syscall_entry_Y}/{@code syscall_exit_Y} → {@code syscall_Y}),
 *       or the pairs the user's {@link StateRules} name;
 *       when the entry carries an {@code addr} field
 *       ({@code lttng_ust_cyg_profile:func_entry}) the state is named by the address too;
 *   <li>every other event → a punctual event named as the trace names it.
 * </ul>
 * Times are nanoseconds from the origin of the trace's clock (LTTng's monotonic clock: the
 * machine's boot); the Epoch time adds the clock's offset, which a double could not hold to the
 * nanosecond. Exits without an entry and entries never exited are counted and reported as warnings.
 */
public final class CtfReader implements TraceReader {
  /** How deep under a directory its trace is looked for (LTTng's user-space traces sit 5 levels down). */
  private static final int MAX_DEPTH = 8;

  /** Reads a trace's metadata file. */
  interface MetadataSource {
    CtfMetadata read(Path file) throws IOException;
  }

  private final MetadataSource metadata;

  public CtfReader() {
    this(CtfMetadata::read);
  }

  /**
   * A reader that takes the metadata from {@code metadata} rather than parsing its file: the
   * stream fuzz target holds the metadata fixed and parses it once, which was most of an input's
   * cost ({@code CtfReaders}, in the tests).
   */
  CtfReader(MetadataSource metadata) {
    this.metadata = metadata;
  }

  /** Packetized metadata (magic 0x75D11D57, either byte order), or TSDL text opening with "/* CTF 1.8". */
  public static boolean sniff(byte[] head) {
    return CtfMetadata.sniff(head);
  }

  /**
   * The metadata file of the one CTF trace under {@code dir} (LTTng writes
   * {@code SESSION/ust/uid/0/64-bit/metadata}, {@code SESSION/kernel/metadata}, …); several are
   * refused with their list, since each is a trace of its own (own clock, own streams).
   */
  public static Path metadataIn(Path dir) throws IOException {
    List<Path> found = new ArrayList<>();
    try (Stream<Path> files = Files.walk(dir, MAX_DEPTH)) {
      for (Path file : files.filter(f -> f.getFileName().toString().equals("metadata")).sorted().toList()) {
        byte[] head;
        try (InputStream in = Files.newInputStream(file)) {
          head = in.readNBytes(16);
        }
        if (Files.isRegularFile(file) && sniff(head)) {
          found.add(file);
        }
      }
    }
    if (found.size() == 1) {
      return found.get(0);
    }
    throw new TraceFormatException(dir + (found.isEmpty()
        ? ": a directory with no CTF trace (no metadata file) nor Parquet dataset (no dataset.json) in it; give the"
            + " trace file itself"
        : ": a directory with " + found.size() + " CTF traces; give the metadata file of one: " + found));
  }

  @Override
  public void read(Path file, TraceSink sink, ReadOptions options) throws IOException {
    try (CtfTrace trace = CtfTrace.open(file, metadata.read(file))) {
      new Mapping(trace, sink, options.states()).run(options);
    }
  }

  /**
   * What an event class becomes: a state entry or exit of {@code state} (numbered {@code stateId}
   * to match exits to entries), or a punctual event of {@code type}.
   */
  private record Role(int kind, String state, int stateId, int type) {
    static final int EVENT = 0;
    static final int ENTRY = 1;
    static final int EXIT = 2;
  }

  /** The open states of one producer: parallel columns, innermost last. */
  private static final class Stack {
    final IntColumn types = new IntColumn();
    final IntColumn states = new IntColumn();
    final LongColumn addresses = new LongColumn();
    final DoubleColumn starts = new DoubleColumn();

    /** Forgets the entries from {@code size} on. */
    void truncate(int size) {
      while (states.size() > size) {
        types.removeLast();
        states.removeLast();
        addresses.removeLast();
        starts.removeLast();
      }
    }
  }

  /** A growable long array: the addresses of open function entries. */
  private static final class LongColumn {
    private long[] values = new long[16];
    private int size;

    void add(long value) {
      if (size == values.length) {
        // By hand: open function entries, per entry event (CTF import, hot; fastutil 3.4x slower, decision 032).
        values = Arrays.copyOf(values, size * 2);
      }
      values[size++] = value;
    }

    long get(int index) {
      return values[index];
    }

    void removeLast() {
      size--;
    }
  }

  private static final class Mapping {
    /** No such field: a value no pid or tid takes. */
    private static final long NONE = Long.MIN_VALUE;
    private final CtfTrace trace;
    private final TraceSink sink;
    private final TypeIds types;
    private final StateRules rules;
    private final Map<EventClass, Role> roles = new IdentityHashMap<>();
    /** Ids of the states, by the name the state rules give them. */
    private final Map<String, Integer> stateIds = new HashMap<>();
    /** By state id: the types of its functions by address. */
    private final List<AddressTypes> addressTypes = new ArrayList<>();
    private final Map<Long, Integer> processes = new HashMap<>();
    private final Map<Long, Integer> producers = new HashMap<>();
    /** By producer id; null for producers without entries. */
    private final List<Stack> stacks = new ArrayList<>();
    private int nextProducer = 1;
    private long lastKey = Long.MIN_VALUE;
    private int lastProducer;
    private long unmatchedExits;
    private long lostExits;
    private double first = Double.POSITIVE_INFINITY;
    private double last = Double.NEGATIVE_INFINITY;

    Mapping(CtfTrace trace, TraceSink sink, StateRules rules) {
      this.trace = trace;
      this.sink = sink;
      this.rules = rules;
      this.types = new TypeIds(sink, false);
    }

    void run(ReadOptions options) throws IOException {
      Map<String, String> env = trace.metadata().env();
      String name = env.getOrDefault("trace_name", env.getOrDefault("hostname",
          String.valueOf(trace.metadataFile().toAbsolutePath().getParent().getFileName())));
      sink.producer(0, name, "trace", -1, 0);
      long events = 0;
      while (trace.next()) {
        CtfStream stream = trace.current();
        double time = stream.timestamp() - stream.origin();
        first = Math.min(first, time);
        last = Math.max(last, time);
        try {
          record(stream, producer(stream), time);
        } catch (IllegalArgumentException refused) {
          // The store writer's refusal (a limit, a record it cannot keep), at the event that sent it.
          throw TraceFormatException.atOffset(stream.file(), stream.eventOffset(), refused.getMessage());
        }
        if (++events % 65536 == 0) {
          options.bytesRead().accept(trace.bytesRead());
        }
      }
      finish();
    }

    private void record(CtfStream stream, int producer, double time) {
      EventClass event = stream.event();
      Role role = roles.get(event);
      if (role == null) {
        role = role(event);
        roles.put(event, role);
      }
      if (role.kind() == Role.EVENT) {
        sink.event(producer, role.type(), time);
        return;
      }
      Stack stack = stack(producer);
      int state = role.stateId();
      if (role.kind() == Role.ENTRY) {
        long address = address(stream);
        stack.types.add(entryType(address, role));
        stack.states.add(state);
        stack.addresses.add(address);
        stack.starts.add(time);
        return;
      }
      // The innermost open entry of this state (and function, when the exit names one). Entries
      // above it lost their exit (a tracer discarding events): they are dropped, not closed here,
      // so that one lost event costs one state rather than shifting every later pair.
      long address = address(stream);
      int match = stack.states.size() - 1;
      while (match >= 0 && (stack.states.get(match) != state
          || address != NONE && stack.addresses.get(match) != address)) {
        match--;
      }
      if (match < 0) {
        unmatchedExits++;
        return;
      }
      lostExits += stack.states.size() - 1 - match;
      sink.state(producer, stack.types.get(match), stack.starts.get(match), time, match,
          match == 0 ? -1 : stack.types.get(match - 1));
      stack.truncate(match);
    }

    /** The event's {@code addr} field (function entries and exits), or {@link #NONE}. */
    private static long address(CtfStream stream) {
      long address = stream.value("_addr", NONE);
      return address != NONE ? address : stream.value("addr", NONE);
    }

    private Stack stack(int producer) {
      while (stacks.size() <= producer) {
        stacks.add(null);
      }
      Stack stack = stacks.get(producer);
      if (stack == null) {
        stack = new Stack();
        stacks.set(producer, stack);
      }
      return stack;
    }

    private Role role(EventClass event) {
      String name = event.name();
      StateRules.Role rule = rules.role(name);
      if (rule == null) {
        return new Role(Role.EVENT, null, -1, types.id(name, EventCategory.EVENT, null));
      }
      int stateId = stateIds.computeIfAbsent(rule.state(), s -> stateIds.size());
      return new Role(rule.entry() ? Role.ENTRY : Role.EXIT, rule.state(), stateId, -1);
    }

    /**
     * The entry's state type: by address when the entry has one (a function's entry), named
     * {@code func 0x401136} in the group {@code lttng_ust_cyg_profile:func}.
     */
    private int entryType(long address, Role role) {
      if (address == NONE) {
        return types.id(role.state(), EventCategory.STATE, null);
      }
      while (addressTypes.size() <= role.stateId()) {
        addressTypes.add(new AddressTypes());
      }
      AddressTypes known = addressTypes.get(role.stateId());
      int type = known.get(address);
      if (type < 0) {
        String name = role.state().substring(role.state().lastIndexOf(':') + 1) + " 0x" + Long.toHexString(address);
        type = types.id(name, EventCategory.STATE, role.state());
        known.put(address, type);
      }
      return type;
    }

    /** The producer of the current event: its thread under its process, else its CPU or stream file. */
    private int producer(CtfStream stream) {
      long pid = stream.value("_vpid", NONE);
      if (pid == NONE) {
        pid = stream.value("_pid", NONE);
      }
      long tid = stream.value("_vtid", NONE);
      if (tid == NONE) {
        tid = stream.value("_tid", NONE);
      }
      boolean thread = pid != NONE && tid != NONE;
      // Thread keys are pid:tid (both below 2³¹, Linux's pid_max being 2²²); other keys negative:
      // a CPU (-2 - cpu) or a stream file (-2 - 2³² - its rank).
      long key = thread ? pid << 32 | (tid & 0xFFFF_FFFFL)
          : stream.cpu() >= 0 ? -2 - stream.cpu() : -2 - (1L << 32) - stream.order();
      if (key == lastKey) {
        return lastProducer;
      }
      Integer known = producers.get(key);
      if (known == null) {
        known = thread ? declareThread(stream, pid, tid) : declareStream(stream);
        producers.put(key, known);
      }
      lastKey = key;
      lastProducer = known;
      return known;
    }

    private int declareStream(CtfStream stream) {
      int id = nextProducer++;
      boolean cpu = stream.cpu() >= 0;
      sink.producer(id, cpu ? "cpu " + stream.cpu() : stream.file().getFileName().toString(), cpu ? "cpu" : "stream",
          0, first);
      return id;
    }

    private int declareThread(CtfStream stream, long pid, long tid) {
      Integer process = processes.get(pid);
      if (process == null) {
        process = nextProducer++;
        String name = stream.text("_procname");
        sink.producer(process, name == null ? "process " + pid : name + " (" + pid + ")", "process", 0, first);
        processes.put(pid, process);
      }
      int id = nextProducer++;
      sink.producer(id, "thread " + tid, "thread", process, first);
      return id;
    }

    private void finish() {
      long open = 0;
      for (Stack stack : stacks) {
        open += stack == null ? 0 : stack.states.size();
      }
      long discarded = 0;
      StringBuilder where = new StringBuilder();
      for (CtfStream stream : trace.streams()) {
        if (stream.discarded() > 0) {
          discarded += stream.discarded();
          where.append(where.length() == 0 ? "" : ", ").append(stream.discarded()).append(" in ")
              .append(stream.file().getFileName());
        }
      }
      if (discarded > 0) {
        sink.warning(discarded + " event(s) discarded by the tracer, its buffers full (" + where + ")");
      }
      if (unmatchedExits > 0) {
        sink.warning(unmatchedExits + " exit event(s) without the matching entry on their thread (ignored)");
      }
      if (lostExits > 0) {
        sink.warning(lostExits + " entry event(s) whose exit is missing, found open when an outer exit came (dropped)");
      }
      if (open > 0) {
        sink.warning(open + " entry event(s) never exited before the trace's end (dropped)");
      }
      if (first > last) {
        first = 0;
        last = 0;
      }
      sink.end(first, last, "ns");
    }
  }
}
