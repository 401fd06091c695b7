package org.ocelotl.format.paje;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.ocelotl.format.TypeIds;
import org.ocelotl.model.EventCategory;
import org.ocelotl.trace.ReadOptions;
import org.ocelotl.trace.TraceFormatException;
import org.ocelotl.trace.TraceSink;

/**
 * One read of one Pajé trace: interprets its lines like PajeNG's simulator does (container
 * tree, state stacks, variable values, link matching) and writes the results into the sink.
 * Names, aliases and values are resolved from the line buffer through {@link NameTable}; the
 * per-line path allocates nothing.
 */
final class PajeImport {
  /** What a malformed line is; lenient reads skip such lines and count them by problem. */
  enum Problem {
    UNKNOWN_EVENT_ID("unknown event id"),
    FIELD_COUNT("wrong number of fields"),
    NOT_A_NUMBER("not a number"),
    UNTERMINATED_QUOTE("unterminated quoted string"),
    UNKNOWN_CONTAINER("unknown container"),
    UNKNOWN_TYPE("unknown type"),
    WRONG_TYPE("type of the wrong kind"),
    DUPLICATE("name defined twice"),
    POP_EMPTY("pop on an empty stack"),
    VARIABLE_WITHOUT_VALUE("add or sub on a variable without value"),
    DESTROYED_CONTAINER("event on a destroyed container"),
    LINK_END_WITHOUT_START("link end without start"),
    LINK_KEY_REUSED("link key already waiting");

    final String description;

    Problem(String description) {
      this.description = description;
    }
  }

  /** Thrown to abandon a line in lenient mode, after it was counted; no stack trace. */
  private static final class SkipLine extends RuntimeException {
    private static final long serialVersionUID = 1L;

    SkipLine() {
      super(null, null, false, false);
    }
  }

  private static final SkipLine SKIP = new SkipLine();
  private static final Set<String> FIELD_TYPES =
      Set.of("string", "float", "double", "int", "hex", "date", "color");
  private static final int SCOPE_DEFINITION = 0;
  private static final int SCOPE_CONTAINER_ID = 1;
  private static final int SCOPE_CONTAINER_NAME = 2;
  private static final int SCOPE_TYPE_ID = 3;
  private static final int SCOPE_TYPE_NAME = 4;
  /** Values of Pajé type t live in scopes VALUE_SCOPES + 2t (alias) and + 2t + 1 (name). */
  private static final int VALUE_SCOPES = 5;
  private static final int NO_TYPE = -1;

  /** The trace's name in messages: its path, or its URI when the Spark import reads it from HDFS or S3. */
  private final String file;
  private final TraceSink sink;
  private final boolean lenient;
  private final LineScanner lines;
  private final NameTable names = new NameTable();
  private final List<EventDefinition> definitions = new ArrayList<>();
  private EventDefinition defining;
  /** Per field (dates, values, sizes): its last number, which the next line often repeats. */
  private final LastDecimal[] lastNumbers = new LastDecimal[Field.values().length];


  /** The Pajé types by index (their aliases and names map to it in {@link #names}). */
  private final List<PajeType> types = new ArrayList<>();
  /** Sink event types by (category, group, name): SimGrid repeats a type under several aliases. */
  private final TypeIds sinkTypes;
  /** Link types whose mismatching ends were already reported (once per type). */
  private final Set<Integer> linkEndsWarned = new HashSet<>();

  // Containers = producers, by id; 0 is the root container "0".
  private int[] containerType = new int[256];
  private boolean[] destroyed = new boolean[256];
  private String[] containerName = new String[256];
  /** First state/variable slot of each producer, chained through slotNext. */
  private int[] firstSlot = new int[256];
  /** The latest date of an event on each container: it cannot be destroyed before. */
  private double[] containerLast = new double[256];
  private int containers;

  /** The hot part: state stacks and variable values, by slot of (producer, Pajé type). */
  private final SlotStacks slots = new SlotStacks();

  private final PendingLinks links = new PendingLinks();

  private double firstTime = Double.POSITIVE_INFINITY;
  private double lastTime = Double.NEGATIVE_INFINITY;
  private final Map<Problem, long[]> skipped = new EnumMap<>(Problem.class);
  private long destroyedEvents;
  private long destroyedFirstLine;

  /** The trace's bounds when known beforehand (null: from the dates read), see {@link #withBounds}. */
  private double[] bounds;

  /** This read interprets the lines of part {@code part} of {@code parts} ({@link #partOf}). */
  private int part;
  private int parts = 1;

  PajeImport(String file, TraceSink sink, ReadOptions options, LineScanner lines) {
    this.file = file;
    this.sink = sink;
    this.sinkTypes = new TypeIds(sink, true);
    this.lenient = options.lenient();
    this.lines = lines;
    Arrays.setAll(lastNumbers, field -> new LastDecimal());
  }

  /**
   * Makes the trace's bounds those given rather than those of the dates read: a Spark partition
   * reads some of the trace's lines only, yet must close the states left open, and end the
   * variables, at the end of the whole trace, as the sequential read does.
   */
  PajeImport withBounds(double first, double last) {
    this.bounds = new double[] {first, last};
    return this;
  }

  /**
   * Makes this read one of {@code parts} that share a trace, each reading every line ({@link
   * PajeParallel}): it interprets every definition line, and of the other lines only those of its
   * part — the states, events and variables of the containers whose id is {@code part} modulo
   * {@code parts}, the links whose (type, key) hash there; a line whose container or link type is
   * unknown goes to part 0, which refuses it as the sequential read does. A container's lines and a
   * link's two halves are thus all read by one part, in trace order, with the definitions read so
   * far: its stacks, values and matching are the sequential read's.
   */
  PajeImport partOf(int part, int parts) {
    this.part = part;
    this.parts = parts;
    return this;
  }

  void run() throws IOException {
    readLines();
    finish(true);
  }

  /** The earliest and latest dates of the lines this read interpreted (infinite when none). */
  double firstTime() {
    return firstTime;
  }

  double lastTime() {
    return lastTime;
  }

  /** Reads every line; {@link #finish} ends the read. */
  void readLines() throws IOException {
    if (lines.looksBinary()) {
      throw new TraceFormatException(file + ": not a Pajé trace: binary data"
          + " (expected text starting with %EventDef definitions)");
    }
    defineRoot();
    long eventLines = 0;
    while (lines.next()) {
      byte first = lines.buffer()[lines.start(0)];
      if (first == '%' && !quoted(0)) {
        header();
        continue;
      }
      if (defining != null) {
        throw error("expected a field line '% Name type' or %EndEventDef inside the definition of "
            + defining.kind.pajeName);
      }
      try {
        event();
        eventLines++;
      } catch (SkipLine skip) {
        // counted in reject()
      } catch (IllegalArgumentException refused) {
        // The store writer's refusal (a limit, a record it cannot keep), at the line that sent it.
        throw error(refused.getMessage());
      }
    }
    if (defining != null) {
      throw new TraceFormatException(file + ": the file ends inside the definition of "
          + defining.kind.pajeName + " (expected %EndEventDef)");
    }
    if (definitions.isEmpty() && eventLines == 0 && skipped.isEmpty()) {
      throw new TraceFormatException(file + ": empty trace: no %EventDef definitions and no events");
    }
  }

  // ---------------------------------------------------------------- header

  private boolean quoted(int field) {
    int start = lines.start(field);
    return start > 0 && lines.buffer()[start - 1] == '"';
  }

  private void header() throws TraceFormatException {
    String head = lines.field(0);
    if (head.equals("%EventDef")) {
      beginDefinition();
    } else if (head.equals("%EndEventDef")) {
      endDefinition();
    } else if (defining == null) {
      throw error("expected %EventDef before field lines");
    } else if (head.equals("%")) {
      addField(1);
    } else {
      addField(0);
    }
  }

  private void beginDefinition() throws TraceFormatException {
    if (defining != null) {
      throw error("expected %EndEventDef before the next %EventDef");
    }
    if (lines.fieldCount() != 3) {
      throw error("expected '%EventDef PajeEventName id'");
    }
    EventKind kind = EventKind.named(lines.field(1));
    if (kind == null) {
      throw error("unknown Pajé event '" + lines.field(1) + "': expected one of "
          + Arrays.stream(EventKind.values()).map(k -> k.pajeName).toList());
    }
    byte[] b = lines.buffer();
    if (names.get(SCOPE_DEFINITION, b, lines.start(2), lines.end(2)) >= 0) {
      throw error("event id " + lines.field(2) + " is defined twice");
    }
    defining = new EventDefinition(kind, lines.field(2));
  }

  private void addField(int nameField) throws TraceFormatException {
    if (lines.fieldCount() != nameField + 2) {
      throw error("expected a field line '% Name type'");
    }
    String type = lines.field(nameField + 1);
    if (!FIELD_TYPES.contains(type)) {
      throw error("unknown field type '" + type + "': expected one of " + FIELD_TYPES);
    }
    String name = lines.field(nameField);
    if (name.startsWith("%")) {
      name = name.substring(1);
    }
    if (!defining.add(name)) {
      throw error("field " + name + " given twice in the definition of " + defining.kind.pajeName);
    }
  }

  private void endDefinition() throws TraceFormatException {
    if (defining == null) {
      throw error("%EndEventDef without %EventDef");
    }
    List<String> missing = defining.missing();
    if (!missing.isEmpty()) {
      throw error(defining.kind.pajeName + " (id " + defining.id + ") lacks the fields " + missing);
    }
    byte[] id = defining.id.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    names.put(SCOPE_DEFINITION, id, 0, id.length, definitions.size());
    definitions.add(defining);
    defining = null;
  }

  // ---------------------------------------------------------------- events

  private void event() throws TraceFormatException {
    byte[] b = lines.buffer();
    int id = names.get(SCOPE_DEFINITION, b, lines.start(0), lines.end(0));
    if (id < 0) {
      throw reject(Problem.UNKNOWN_EVENT_ID, "unknown event id '" + lines.field(0)
          + "': expected an id defined by %EventDef");
    }
    EventDefinition def = definitions.get(id);
    if (lines.fieldCount() - 1 != def.fieldCount()) {
      throw reject(Problem.FIELD_COUNT, def.kind.pajeName + " (id " + def.id + ") expects "
          + def.fieldCount() + " fields after the id (" + def.layout() + "), found "
          + (lines.fieldCount() - 1));
    }
    if (lines.unterminatedQuote()) {
      throw reject(Problem.UNTERMINATED_QUOTE, "a quoted field has no closing quote");
    }
    if (parts > 1 && !owns(def)) {
      return;
    }
    double time = def.position(Field.TIME) >= 0 ? number(def, Field.TIME) : Double.NaN;
    switch (def.kind) {
      case DEFINE_CONTAINER_TYPE -> defineContainerType(def);
      case DEFINE_STATE_TYPE -> defineEntityType(def, EventCategory.STATE);
      case DEFINE_EVENT_TYPE -> defineEntityType(def, EventCategory.EVENT);
      case DEFINE_VARIABLE_TYPE -> defineEntityType(def, EventCategory.VARIABLE);
      case DEFINE_LINK_TYPE -> defineEntityType(def, EventCategory.LINK);
      case DEFINE_ENTITY_VALUE -> defineValue(def);
      case CREATE_CONTAINER -> createContainer(def, time);
      case DESTROY_CONTAINER -> destroyContainer(def, time);
      case NEW_EVENT -> newEvent(def, time);
      case SET_STATE, PUSH_STATE, POP_STATE, RESET_STATE -> state(def, time);
      case SET_VARIABLE, ADD_VARIABLE, SUB_VARIABLE -> variable(def, time);
      case START_LINK, END_LINK -> link(def, time);
      case TRACE_FILE -> traceFile(def);
      default -> throw new AssertionError(def.kind);
    }
    if (!Double.isNaN(time)) {
      advanceClock(time);
    }
  }

  /** Whether this part interprets the line ({@link #partOf}); it reads no date of the others. */
  private boolean owns(EventDefinition def) {
    byte[] b = lines.buffer();
    switch (def.kind) {
      case NEW_EVENT, SET_STATE, PUSH_STATE, POP_STATE, RESET_STATE, SET_VARIABLE, ADD_VARIABLE, SUB_VARIABLE -> {
        int f = 1 + def.position(Field.CONTAINER);
        int container = names.get(SCOPE_CONTAINER_ID, b, lines.start(f), lines.end(f));
        if (container < 0) {
          container = names.get(SCOPE_CONTAINER_NAME, b, lines.start(f), lines.end(f));
        }
        return container < 0 ? part == 0 : ownsContainer(container);
      }
      case START_LINK, END_LINK -> {
        int f = 1 + def.position(Field.TYPE);
        int type = names.get(SCOPE_TYPE_ID, b, lines.start(f), lines.end(f));
        if (type < 0) {
          type = names.get(SCOPE_TYPE_NAME, b, lines.start(f), lines.end(f));
        }
        if (type < 0) {
          return part == 0;
        }
        int k = 1 + def.position(Field.KEY);
        int hash = 31 * type;
        for (int i = lines.start(k); i < lines.end(k); i++) {
          hash = 31 * hash + b[i];
        }
        return Math.floorMod(hash, parts) == part;
      }
      default -> {
        return true;
      }
    }
  }

  private boolean ownsContainer(int container) {
    return container % parts == part;
  }

  private void advanceClock(double time) {
    firstTime = Math.min(firstTime, time);
    lastTime = Math.max(lastTime, time);
  }

  /**
   * Rejects a date before the last one of the same (container, type), even when lenient: the
   * stacks and values that follow would be wrong. Like pj_dump, the order is only required per
   * (container, type): SimGrid writes dates of different containers slightly out of order.
   */
  private void checkOrder(int slot, double time, int type) throws TraceFormatException {
    if (!slots.advance(slot, time, lines.lineNumber())) {
      throw error("not time-ordered: the date goes back in time for type " + types.get(type).label()
          + " in container '" + containerName[slots.producer[slot]] + "' (expected a date ≥ "
          + slots.last[slot] + ", the date at line " + slots.lastLine[slot] + ")");
    }
    containerLast[slots.producer[slot]] = time;
  }

  private double number(EventDefinition def, Field field) throws TraceFormatException {
    int f = 1 + def.position(field);
    double v = lastNumbers[field.ordinal()].parse(lines.buffer(), lines.start(f), lines.end(f));
    if (!Double.isFinite(v)) { // not a number, or beyond a double's range such as 1e400
      throw reject(Problem.NOT_A_NUMBER, field.names[0] + ": expected a finite number, found '"
          + lines.field(f) + "'");
    }
    return v;
  }

  // ---------------------------------------------------------------- definitions

  private void defineRoot() {
    byte[] zero = {'0'};
    types.add(new PajeType("0", "'0'", null, NO_TYPE, NO_TYPE, NO_TYPE, -1));
    names.put(SCOPE_TYPE_ID, zero, 0, 1, 0);
    names.put(SCOPE_TYPE_NAME, zero, 0, 1, 0);
    containers = 1;
    containerType[0] = 0;
    containerName[0] = "0";
    firstSlot[0] = -1;
    names.put(SCOPE_CONTAINER_ID, zero, 0, 1, 0);
    names.put(SCOPE_CONTAINER_NAME, zero, 0, 1, 0);
    sink.producer(0, "0", "0", -1, 0);
  }

  private void defineContainerType(EventDefinition def) throws TraceFormatException {
    int parent = containerTypeField(def, Field.TYPE);
    newType(def, null, parent, NO_TYPE, NO_TYPE, null);
  }

  private void defineEntityType(EventDefinition def, EventCategory category)
      throws TraceFormatException {
    int parent = containerTypeField(def, Field.TYPE);
    int start = NO_TYPE;
    int end = NO_TYPE;
    if (category == EventCategory.LINK) {
      start = containerTypeField(def, Field.START_CONTAINER_TYPE);
      end = containerTypeField(def, Field.END_CONTAINER_TYPE);
    }
    newType(def, category, parent, start, end, optional(def, Field.COLOR));
  }

  /**
   * Registers a type under its alias (or its name) and its name. A variable or link type is also
   * a sink event type (declared with {@code color}); a state or event type is not, its values are.
   */
  private void newType(EventDefinition def, EventCategory category, int parent, int start, int end, String color)
      throws TraceFormatException {
    int nameField = 1 + def.position(Field.NAME);
    int aliasField = def.position(Field.ALIAS) < 0 ? nameField : 1 + def.position(Field.ALIAS);
    byte[] b = lines.buffer();
    if (names.get(SCOPE_TYPE_ID, b, lines.start(aliasField), lines.end(aliasField)) >= 0) {
      throw reject(Problem.DUPLICATE, "type '" + lines.field(aliasField)
          + "' is already defined: expected a new alias or name");
    }
    int type = types.size();
    String name = lines.field(nameField);
    String label = "'" + name + "'" + (aliasField == nameField ? "" : " (alias " + lines.field(aliasField) + ")");
    int sinkType = category == EventCategory.VARIABLE || category == EventCategory.LINK
        ? sinkTypes.id(name, category, null, color) : -1;
    types.add(new PajeType(name, label, category, parent, start, end, sinkType));
    names.put(SCOPE_TYPE_ID, b, lines.start(aliasField), lines.end(aliasField), type);
    if (names.get(SCOPE_TYPE_NAME, b, lines.start(nameField), lines.end(nameField)) < 0) {
      names.put(SCOPE_TYPE_NAME, b, lines.start(nameField), lines.end(nameField), type);
    }
  }

  private void defineValue(EventDefinition def) throws TraceFormatException {
    int type = typeField(def, Field.TYPE);
    EventCategory category = types.get(type).category();
    if (category != EventCategory.STATE && category != EventCategory.EVENT
        && category != EventCategory.LINK) {
      throw reject(Problem.WRONG_TYPE, "type '" + types.get(type).name()
          + "' takes no values: expected a state, event or link type");
    }
    int nameField = 1 + def.position(Field.NAME);
    int aliasField = def.position(Field.ALIAS) < 0 ? nameField : 1 + def.position(Field.ALIAS);
    byte[] b = lines.buffer();
    int aliasScope = VALUE_SCOPES + 2 * type;
    if (names.get(aliasScope, b, lines.start(aliasField), lines.end(aliasField)) >= 0) {
      throw reject(Problem.DUPLICATE, "value '" + lines.field(aliasField) + "' of type '"
          + types.get(type).name() + "' is already defined");
    }
    // Link values are accepted and ignored: a link's event type is its link type.
    int id = category == EventCategory.LINK ? -1
        : sinkTypes.id(lines.field(nameField), category, types.get(type).name(), optional(def, Field.COLOR));
    names.put(aliasScope, b, lines.start(aliasField), lines.end(aliasField), id);
    if (names.get(aliasScope + 1, b, lines.start(nameField), lines.end(nameField)) < 0) {
      names.put(aliasScope + 1, b, lines.start(nameField), lines.end(nameField), id);
    }
  }

  private String optional(EventDefinition def, Field field) {
    return def.position(field) < 0 ? null : lines.field(1 + def.position(field));
  }

  // ---------------------------------------------------------------- containers

  private void createContainer(EventDefinition def, double time) throws TraceFormatException {
    int type = containerTypeField(def, Field.TYPE);
    int parent = containerField(def, Field.CONTAINER);
    if (types.get(type).parent() != containerType[parent]) {
      throw reject(Problem.WRONG_TYPE, "container type '" + types.get(type).name()
          + "' is not a child of the type '" + types.get(containerType[parent]).name()
          + "' of container '" + containerName[parent] + "'");
    }
    int nameField = 1 + def.position(Field.NAME);
    int aliasField = def.position(Field.ALIAS) < 0 ? nameField : 1 + def.position(Field.ALIAS);
    byte[] b = lines.buffer();
    if (names.get(SCOPE_CONTAINER_ID, b, lines.start(aliasField), lines.end(aliasField)) >= 0) {
      throw reject(Problem.DUPLICATE, "container '" + lines.field(aliasField)
          + "' already exists: expected a new name or alias");
    }
    int id = containers++;
    if (id == containerType.length) {
      int n = id * 2;
      containerType = Arrays.copyOf(containerType, n);
      destroyed = Arrays.copyOf(destroyed, n);
      containerName = Arrays.copyOf(containerName, n);
      firstSlot = Arrays.copyOf(firstSlot, n);
      containerLast = Arrays.copyOf(containerLast, n);
    }
    containerType[id] = type;
    containerName[id] = lines.field(nameField);
    firstSlot[id] = -1;
    containerLast[id] = time;
    names.put(SCOPE_CONTAINER_ID, b, lines.start(aliasField), lines.end(aliasField), id);
    if (names.get(SCOPE_CONTAINER_NAME, b, lines.start(nameField), lines.end(nameField)) < 0) {
      names.put(SCOPE_CONTAINER_NAME, b, lines.start(nameField), lines.end(nameField), id);
    }
    sink.producer(id, containerName[id], types.get(type).name(), parent, time);
  }

  private void destroyContainer(EventDefinition def, double time) throws TraceFormatException {
    int type = containerTypeField(def, Field.TYPE);
    int container = containerField(def, Field.NAME);
    if (containerType[container] != type) {
      throw reject(Problem.WRONG_TYPE, "container '" + containerName[container] + "' is of type '"
          + types.get(containerType[container]).name() + "', not '" + types.get(type).name() + "'");
    }
    if (destroyed[container]) {
      if (ownsContainer(container)) { // every part reads this line: one counts it
        ignoreOnDestroyed();
      }
      return;
    }
    if (time < containerLast[container]) {
      throw error("not time-ordered: container '" + containerName[container]
          + "' is destroyed before its last event (expected a date ≥ " + containerLast[container]
          + ")");
    }
    closeProducer(container, time);
    destroyed[container] = true;
    sink.producerEnd(container, time);
  }

  /** Ends what is open in the producer: its states at {@code time}, its last variable values. */
  private void closeProducer(int producer, double time) {
    for (int slot = firstSlot[producer]; slot >= 0; slot = slots.next[slot]) {
      closeStack(slot, 0, time);
      flushVariable(slot);
    }
  }

  /**
   * pj_dump ignores, without a word, every event on a container after its destruction; we do
   * the same but count them in a warning.
   */
  private void ignoreOnDestroyed() {
    if (destroyedEvents++ == 0) {
      destroyedFirstLine = lines.lineNumber();
    }
  }

  // ---------------------------------------------------------------- entities

  private void newEvent(EventDefinition def, double time) throws TraceFormatException {
    int container = containerField(def, Field.CONTAINER);
    int type = entityType(def, container, EventCategory.EVENT);
    int valueType = valueField(def, type);
    if (destroyed[container]) {
      ignoreOnDestroyed();
      return;
    }
    checkOrder(slot(container, type), time, type);
    sink.event(container, valueType, time);
  }

  private void state(EventDefinition def, double time) throws TraceFormatException {
    int container = containerField(def, Field.CONTAINER);
    int type = entityType(def, container, EventCategory.STATE);
    boolean pushes = def.kind == EventKind.SET_STATE || def.kind == EventKind.PUSH_STATE;
    int valueType = pushes ? valueField(def, type) : -1;
    if (destroyed[container]) {
      ignoreOnDestroyed();
      return;
    }
    int slot = slot(container, type);
    checkOrder(slot, time, type);
    switch (def.kind) {
      case SET_STATE -> {
        // pj_dump's SetState is a ResetState followed by a PushState.
        closeStack(slot, 0, time);
        slots.push(slot, valueType, time);
      }
      case PUSH_STATE -> slots.push(slot, valueType, time);
      case POP_STATE -> {
        if (slots.depth[slot] == 0) {
          throw reject(Problem.POP_EMPTY, "pop on an empty stack: expected an open state of type '"
              + types.get(type).name() + "' in container '" + containerName[container] + "'");
        }
        closeStack(slot, slots.depth[slot] - 1, time);
      }
      case RESET_STATE -> closeStack(slot, 0, time);
      default -> throw new AssertionError(def.kind);
    }
  }

  private void closeStack(int slot, int depth, double time) {
    slots.close(slot, depth, time, sink);
  }

  private void variable(EventDefinition def, double time) throws TraceFormatException {
    int container = containerField(def, Field.CONTAINER);
    int type = entityType(def, container, EventCategory.VARIABLE);
    double v = number(def, Field.VALUE);
    if (destroyed[container]) {
      ignoreOnDestroyed();
      return;
    }
    int slot = slot(container, type);
    checkOrder(slot, time, type);
    if (def.kind != EventKind.SET_VARIABLE) {
      if (!slots.hasValue[slot]) {
        throw reject(Problem.VARIABLE_WITHOUT_VALUE, def.kind.pajeName
            + " on a variable without value: expected a PajeSetVariable of '" + types.get(type).name()
            + "' in container '" + containerName[container] + "' first");
      }
      v = def.kind == EventKind.ADD_VARIABLE ? slots.value[slot] + v : slots.value[slot] - v;
    }
    slots.set(slot, time, v, types.get(type).sinkType(), sink);
  }

  private void flushVariable(int slot) {
    slots.flush(slot, types.get(slots.type[slot]).sinkType(), sink);
  }

  private int slot(int producer, int type) {
    int before = slots.count();
    int slot = slots.slot(producer, type);
    if (slot == before) {
      slots.next[slot] = firstSlot[producer];
      firstSlot[producer] = slot;
    }
    return slot;
  }

  private void link(EventDefinition def, double time) throws TraceFormatException {
    int container = containerField(def, Field.CONTAINER);
    int type = entityType(def, container, EventCategory.LINK);
    boolean isEnd = def.kind == EventKind.END_LINK;
    int end = containerField(def, isEnd ? Field.END_CONTAINER : Field.START_CONTAINER);
    int keyField = 1 + def.position(Field.KEY);
    byte[] b = lines.buffer();
    int entry = links.find(type, b, lines.start(keyField), lines.end(keyField));
    if (entry >= 0 && links.isEnd[entry] == isEnd) {
      throw reject(Problem.LINK_KEY_REUSED, "a " + (isEnd ? "PajeEndLink" : "PajeStartLink")
          + " of type '" + types.get(type).name() + "' with key '" + lines.field(keyField)
          + "' is already waiting (line " + links.line[entry] + "): expected a new key");
    }
    checkLinkEnd(type, end, isEnd);
    double volume = def.position(Field.SIZE) >= 0 ? number(def, Field.SIZE) : Double.NaN;
    if (entry < 0) {
      entry = links.add(type, b, lines.start(keyField), lines.end(keyField));
      links.time[entry] = time;
      links.volume[entry] = volume;
      links.producer[entry] = end;
      links.isEnd[entry] = isEnd;
      links.line[entry] = lines.lineNumber();
      links.text[entry] = isEnd ? lines.lineText() : null;
      return;
    }
    int from = isEnd ? links.producer[entry] : end;
    int to = isEnd ? end : links.producer[entry];
    double start = isEnd ? links.time[entry] : time;
    double finish = isEnd ? time : links.time[entry];
    // The start's Size, else the end's: a trace may give it on either half.
    double carried = isEnd ? (Double.isNaN(links.volume[entry]) ? volume : links.volume[entry])
        : (Double.isNaN(volume) ? links.volume[entry] : volume);
    links.remove(entry);
    sink.link(types.get(type).sinkType(), from, to, start, finish, carried);
  }

  /**
   * SimGrid's grouped traces declare links between container types that the ranks do not
   * have; pj_dump rejects them. The data are sound, so we keep them and say so once per type.
   */
  private void checkLinkEnd(int type, int producer, boolean isEnd) {
    int expected = isEnd ? types.get(type).endType() : types.get(type).startType();
    if (containerType[producer] != expected && linkEndsWarned.add(type)) {
      warn("link type " + types.get(type).label() + " is declared from container type "
          + types.get(types.get(type).startType()).label() + " to " + types.get(types.get(type).endType()).label()
          + " but links containers of type " + types.get(containerType[producer]).label()
          + " (first at line " + lines.lineNumber() + "); links kept");
    }
  }

  private void traceFile(EventDefinition def) throws TraceFormatException {
    String part = lines.field(1 + def.position(Field.FILENAME));
    Path resolved = Path.of(file).toAbsolutePath().resolveSibling(part);
    if (!Files.exists(resolved)) {
      throw error("multi-file trace: part '" + part + "' is missing (expected at " + resolved
          + ")");
    }
    throw error("multi-file traces (PajeTraceFile) are not supported: expected one file"
        + " holding the whole trace, found a reference to part '" + part + "'");
  }

  // ---------------------------------------------------------------- references

  private int containerField(EventDefinition def, Field field) throws TraceFormatException {
    int f = 1 + def.position(field);
    byte[] b = lines.buffer();
    int id = names.get(SCOPE_CONTAINER_ID, b, lines.start(f), lines.end(f));
    if (id < 0) {
      id = names.get(SCOPE_CONTAINER_NAME, b, lines.start(f), lines.end(f));
    }
    if (id < 0) {
      throw reject(Problem.UNKNOWN_CONTAINER, "unknown container '" + lines.field(f)
          + "' in field " + field.names[0] + ": expected the name or alias of a created container");
    }
    return id;
  }

  private int typeField(EventDefinition def, Field field) throws TraceFormatException {
    int f = 1 + def.position(field);
    byte[] b = lines.buffer();
    int type = names.get(SCOPE_TYPE_ID, b, lines.start(f), lines.end(f));
    if (type < 0) {
      type = names.get(SCOPE_TYPE_NAME, b, lines.start(f), lines.end(f));
    }
    if (type < 0) {
      throw reject(Problem.UNKNOWN_TYPE, "unknown type '" + lines.field(f) + "' in field "
          + field.names[0] + ": expected the name or alias of a defined type");
    }
    return type;
  }

  private int containerTypeField(EventDefinition def, Field field) throws TraceFormatException {
    int type = typeField(def, field);
    if (!types.get(type).isContainer()) {
      throw reject(Problem.WRONG_TYPE, "type '" + types.get(type).name() + "' in field " + field.names[0]
          + " is not a container type");
    }
    return type;
  }

  /** The Pajé type of the line, checked to be of {@code category} and defined for the container. */
  private int entityType(EventDefinition def, int container, EventCategory category)
      throws TraceFormatException {
    int type = typeField(def, Field.TYPE);
    if (types.get(type).category() != category) {
      throw reject(Problem.WRONG_TYPE, "type '" + types.get(type).name() + "' is not a "
          + category.name().toLowerCase() + " type");
    }
    if (types.get(type).parent() != containerType[container]) {
      throw reject(Problem.WRONG_TYPE, "type '" + types.get(type).name() + "' belongs to containers of type '"
          + types.get(types.get(type).parent()).name() + "', but container '" + containerName[container]
          + "' is of type '" + types.get(containerType[container]).name() + "'");
    }
    return type;
  }

  /** The sink event type of the line's value, declared on first use when never defined. */
  private int valueField(EventDefinition def, int type) {
    int f = 1 + def.position(Field.VALUE);
    byte[] b = lines.buffer();
    int scope = VALUE_SCOPES + 2 * type;
    int id = names.get(scope, b, lines.start(f), lines.end(f));
    if (id < 0) {
      id = names.get(scope + 1, b, lines.start(f), lines.end(f));
    }
    if (id < 0) {
      id = sinkTypes.id(lines.field(f), types.get(type).category(), types.get(type).name(), null);
      names.put(scope, b, lines.start(f), lines.end(f), id);
    }
    return id;
  }

  // ---------------------------------------------------------------- end

  /**
   * What a read leaves to say at its end, counted so that the parts of a parallel read ({@link
   * PajeParallel}) can add theirs up and word them once, as the sequential read does.
   *
   * @param unended links started but never ended, the line of the first
   * @param ignored events on destroyed containers, the line of the first
   */
  record Leftovers(long unended, long unendedLine, long ignored, long ignoredLine) {
    Leftovers plus(Leftovers other) {
      return new Leftovers(unended + other.unended, Math.min(unendedLine, other.unendedLine),
          ignored + other.ignored, Math.min(ignoredLine, other.ignoredLine));
    }

    void warnUnended(TraceSink sink) {
      if (unended > 0) {
        sink.warning(unended + " link" + (unended == 1 ? "" : "s") + " started but never ended (first at line "
            + unendedLine + "); dropped");
      }
    }

    void warnIgnored(TraceSink sink) {
      if (ignored > 0) {
        sink.warning("ignored " + ignored + " events on destroyed containers (first at line " + ignoredLine
            + "), as pj_dump does");
      }
    }
  }

  /**
   * Ends the read: what is open closes at the trace's end. A part of a parallel read ({@code
   * whole} false) returns its leftovers unsaid and does not end the sink: the parts' sum is said once.
   */
  Leftovers finish(boolean whole) throws TraceFormatException {
    double end = bounds != null ? bounds[1] : lastTime == Double.NEGATIVE_INFINITY ? 0 : lastTime;
    double start = bounds != null ? bounds[0] : firstTime == Double.POSITIVE_INFINITY ? 0 : firstTime;
    long[] unended = unmatchedLinks();
    Leftovers left = new Leftovers(unended[0], unended[1], destroyedEvents,
        destroyedEvents == 0 ? Long.MAX_VALUE : destroyedFirstLine);
    if (whole) {
      left.warnUnended(sink);
    }
    for (int producer = 0; producer < containers; producer++) {
      if (!destroyed[producer]) {
        closeProducer(producer, end);
      }
    }
    if (!whole) {
      return left;
    }
    left.warnIgnored(sink);
    for (Map.Entry<Problem, long[]> e : skipped.entrySet()) {
      sink.warning("skipped " + e.getValue()[0] + " line" + (e.getValue()[0] == 1 ? "" : "s")
          + ": " + e.getKey().description + " (first at line " + e.getValue()[1] + ")");
    }
    sink.end(start, end, "s");
    return left;
  }

  /** Fails on a link end never matched (strict), else counts them; returns the unended starts: count, first line. */
  private long[] unmatchedLinks() throws TraceFormatException {
    long[] starts = {0, Long.MAX_VALUE};
    long[] ends = {0, Long.MAX_VALUE};
    String[] firstEndText = {null};
    links.forEach(entry -> {
      long[] count = links.isEnd[entry] ? ends : starts;
      count[0]++;
      if (links.line[entry] < count[1]) {
        count[1] = links.line[entry];
        if (links.isEnd[entry]) {
          firstEndText[0] = links.text[entry];
        }
      }
    });
    if (ends[0] > 0) {
      if (!lenient) {
        throw TraceFormatException.atLine(file, ends[1], "link end without start: no PajeStartLink"
            + " with the same type and key in the whole trace", firstEndText[0]);
      }
      long[] counted = skipped.computeIfAbsent(Problem.LINK_END_WITHOUT_START, p -> new long[2]);
      counted[0] += ends[0];
      counted[1] = counted[1] == 0 ? ends[1] : Math.min(counted[1], ends[1]);
    }
    return starts;
  }

  private void warn(String message) {
    sink.warning(message);
  }

  // ---------------------------------------------------------------- errors

  private TraceFormatException error(String what) {
    return TraceFormatException.atLine(file, lines.lineNumber(), what, lines.lineText());
  }

  /** Fails the read, or (lenient) counts the line's problem and returns the skip signal. */
  private RuntimeException reject(Problem problem, String what) throws TraceFormatException {
    if (!lenient) {
      throw error(what);
    }
    long[] counted = skipped.computeIfAbsent(problem, p -> new long[2]);
    if (counted[0]++ == 0) {
      counted[1] = lines.lineNumber();
    }
    return SKIP;
  }
}
