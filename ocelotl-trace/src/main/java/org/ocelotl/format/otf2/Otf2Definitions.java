package org.ocelotl.format.otf2;

import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Set;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongConsumer;
import org.ocelotl.trace.TraceFormatException;

/**
 * The global definitions ({@code NAME.def}) that the reader needs, by OTF2 id. Every record has
 * a length, so records the reader does not need (attributes, call paths, parameters, …) and
 * attributes appended by later OTF2 versions are skipped by it.
 *
 * <p>Real archives repeat definitions: EZTrace writes every rank's regions and communicators
 * under rank-specific ids (harmless: types are keyed by name) and defines group 0
 * (MPI_COMM_WORLD) twice, once as the COMM_LOCATIONS list and once as the COMM_GROUP. Groups are
 * therefore kept apart by type; any other id defined twice keeps its last definition and is
 * reported.
 */
final class Otf2Definitions implements java.io.Serializable {
  // Broadcast by the Spark import to its tasks: read once on the driver (Otf2Split).
  private static final long serialVersionUID = 1L;

  static final int CLOCK_PROPERTIES = 5;
  static final int STRING = 10;
  static final int SYSTEM_TREE_NODE = 12;
  static final int LOCATION_GROUP = 13;
  static final int LOCATION = 14;
  static final int REGION = 15;
  static final int GROUP = 18;
  static final int METRIC_MEMBER = 19;
  static final int METRIC_CLASS = 20;
  static final int METRIC_INSTANCE = 21;
  static final int COMM = 22;

  static final int GROUP_COMM_LOCATIONS = 4;

  record Node(String name, String kind, long parent) implements java.io.Serializable {}

  record Location(String name, int type, long events, long group) implements java.io.Serializable {}

  record Group(int type, int paradigm, long[] members) implements java.io.Serializable {}

  final Map<Long, String> strings = new HashMap<>();
  final Map<Long, Node> systemTreeNodes = new LinkedHashMap<>();
  final Map<Long, Node> locationGroups = new LinkedHashMap<>();
  final Map<Long, Location> locations = new LinkedHashMap<>();
  final Map<Long, Long> regionNames = new HashMap<>();
  /** Groups other than COMM_LOCATIONS, by id. */
  final Map<Long, Group> groups = new HashMap<>();
  /** The COMM_LOCATIONS group (rank → location) of each paradigm. */
  final Map<Integer, long[]> commLocations = new HashMap<>();
  private final Set<Long> groupIds = new HashSet<>();
  final Map<Long, Long> commGroups = new HashMap<>();
  final Map<Long, Long> metricMemberNames = new HashMap<>();
  final Map<Long, long[]> metricClasses = new HashMap<>();
  final Map<Long, Long> metricInstances = new HashMap<>();
  long timerResolution = 1;
  long globalOffset;
  long traceLength;
  /** Definition kind → how many ids were defined again; reported as warnings. */
  final Map<String, Integer> redefinitions = new TreeMap<>();
  /** Record kinds this reader skips, with their counts (for the import summary). */
  final Map<Integer, Integer> skipped = new TreeMap<>();

  static Otf2Definitions read(Otf2Anchor anchor, LongConsumer bytesRead) throws IOException {
    Otf2Definitions definitions = new Otf2Definitions();
    try (Otf2Input in = Otf2Input.open(anchor.files(), anchor.globalDefinitionFile(), anchor.defChunkSize(), false)) {
      definitions.readAll(in);
      bytesRead.accept(in.offset());
    }
    return definitions;
  }

  private void readAll(Otf2Input in) throws IOException {
    while (true) {
      int kind = in.nextDefinition("definitions");
      if (kind == Otf2Input.END_OF_FILE) {
        return;
      }
      long recordAt = in.offset() - 1;
      try {
        int end = in.recordEnd();
        record(kind, in);
        in.seek(end);
      } catch (BufferUnderflowException e) {
        throw in.error("definition record " + kind + " is shorter than its fields", recordAt);
      }
    }
  }

  private void record(int kind, Otf2Input in) throws TraceFormatException {
    switch (kind) {
      case CLOCK_PROPERTIES -> {
        timerResolution = in.u64();
        globalOffset = in.u64();
        traceLength = in.u64();
      }
      case STRING -> define("STRING", strings, in.u32(), in.string());
      case SYSTEM_TREE_NODE -> {
        long self = in.u32();
        long name = in.u32();
        long className = in.u32();
        define("SYSTEM_TREE_NODE", systemTreeNodes, self,
            new Node(string(name), string(className), in.u32()));
      }
      case LOCATION_GROUP -> {
        long self = in.u32();
        long name = in.u32();
        int type = in.u8();
        define("LOCATION_GROUP", locationGroups, self,
            new Node(string(name), type == 1 ? "process" : "location group", in.u32()));
      }
      case LOCATION -> {
        long self = in.u64();
        long name = in.u32();
        int type = in.u8();
        long events = in.u64();
        define("LOCATION", locations, self, new Location(string(name), type, events, in.u32()));
      }
      case REGION -> define("REGION", regionNames, in.u32(), in.u32());
      case GROUP -> group(in);
      case COMM -> {
        long self = in.u32();
        in.u32(); // name
        define("COMM", commGroups, self, in.u32());
      }
      case METRIC_MEMBER -> define("METRIC_MEMBER", metricMemberNames, in.u32(), in.u32());
      case METRIC_CLASS -> {
        long self = in.u32();
        long[] members = new long[in.u8()];
        for (int i = 0; i < members.length; i++) {
          members[i] = in.u32();
        }
        define("METRIC_CLASS", metricClasses, self, members);
      }
      case METRIC_INSTANCE -> define("METRIC_INSTANCE", metricInstances, in.u32(), in.u32());
      default -> skipped.merge(kind, 1, Integer::sum);
    }
  }

  /** Layout: self, name, an obsolete type byte, members, then (appended in OTF2 1.2) type, paradigm, flags. */
  private void group(Otf2Input in) throws TraceFormatException {
    long self = in.u32();
    in.u32(); // name
    in.u8(); // the pre-1.2 group type, superseded by the one after the members
    long count = in.u32();
    if (count > in.remaining()) { // a member takes at least one byte
      throw in.error("group with " + count + " members in the " + in.remaining() + " bytes left of its chunk");
    }
    long[] members = new long[(int) count];
    for (int i = 0; i < members.length; i++) {
      members[i] = in.u64();
    }
    int type = in.u8();
    int paradigm = in.u8();
    if (!groupIds.add(self)) {
      redefinitions.merge("GROUP", 1, Integer::sum);
    }
    if (type == GROUP_COMM_LOCATIONS) {
      commLocations.put(paradigm, members);
    } else {
      groups.put(self, new Group(type, paradigm, members));
    }
  }

  private <T> void define(String kind, Map<Long, T> map, long id, T value) {
    if (map.put(id, value) != null) {
      redefinitions.merge(kind, 1, Integer::sum);
    }
  }

  String string(long id) {
    if (id == Otf2Input.UNDEFINED_32) {
      return "";
    }
    String text = strings.get(id);
    return text != null ? text : "<string " + id + ">";
  }

  /** The name of a defined region. */
  String regionName(long region) {
    return string(regionNames.get(region));
  }

  /**
   * The location of rank {@code rank} of communicator {@code comm}: the comm's group lists, per
   * rank, an index into the paradigm's COMM_LOCATIONS group. -1 when the definitions do not say.
   */
  long locationOfRank(long comm, long rank) {
    Long groupId = commGroups.get(comm);
    Group group = groupId == null ? null : groups.get(groupId);
    if (group == null) {
      return -1;
    }
    long[] locations = commLocations.get(group.paradigm());
    if (locations == null || rank < 0 || rank >= group.members().length) {
      return -1;
    }
    long index = group.members()[(int) rank];
    return index >= 0 && index < locations.length ? locations[(int) index] : -1;
  }

  /** The member names of a metric (class or instance); null when undefined. */
  String[] metricMembers(long metric) {
    Long instanceClass = metricInstances.get(metric);
    long[] members = metricClasses.get(instanceClass != null ? instanceClass : metric);
    if (members == null) {
      return null;
    }
    String[] names = new String[members.length];
    for (int i = 0; i < members.length; i++) {
      Long name = metricMemberNames.get(members[i]);
      names[i] = name == null ? "<metric " + members[i] + ">" : string(name);
    }
    return names;
  }
}
