package org.ocelotl.format.perfetto;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.ExtensionRegistryLite;
import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.ocelotl.format.perfetto.proto.ProcessDescriptor;
import org.ocelotl.format.perfetto.proto.ProcessTree;
import org.ocelotl.format.perfetto.proto.ThreadDescriptor;
import org.ocelotl.format.perfetto.proto.TrackDescriptor;
import org.ocelotl.primitive.LongIntMap;
import org.ocelotl.trace.TraceFormatException;

/**
 * What a first pass over the trace learns before any record is written: the tracks (a
 * {@code TrackDescriptor} may come after the first event on its track, or be repeated), and
 * which process each thread belongs to and the names of both (from track descriptors and the
 * {@code process_tree} packets that the Linux process scanner writes). Only these two kinds of
 * packet are decoded (compressed ones inflated to find them); every other is skipped by its
 * top-level fields' lengths.
 */
final class Descriptors {
  static final int OTHER = 0;
  static final int PROCESS = 1;
  static final int THREAD = 2;
  static final int COUNTER = 3;
  private static final int TRACK_DESCRIPTOR_TAG = 60 << 3 | 2;
  private static final int PROCESS_TREE_TAG = 2 << 3 | 2;
  private final LongIntMap trackIndex = new LongIntMap();
  private final List<TrackDescriptor> tracks = new ArrayList<>();
  private final Map<Integer, String> processNames = new HashMap<>();
  private final Map<Long, Integer> threadProcesses = new HashMap<>();
  private final Map<Long, String> threadNames = new HashMap<>();

  static Descriptors collect(PacketInput input) throws IOException {
    Descriptors descriptors = new Descriptors();
    while (input.next()) {
      descriptors.scan(input, input.buffer(), input.packetStart(), input.packetLength(), true);
    }
    return descriptors;
  }

  /** Decodes the packet's descriptors and process trees, and those of its compressed packets when {@code outer}. */
  private void scan(PacketInput input, byte[] bytes, int start, int length, boolean outer) throws IOException {
    CodedInputStream in = CodedInputStream.newInstance(bytes, start, length);
    try {
      for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
        if (tag == TRACK_DESCRIPTOR_TAG) {
          add(in.readMessage(TrackDescriptor.parser(), ExtensionRegistryLite.getEmptyRegistry()));
        } else if (tag == PROCESS_TREE_TAG) {
          add(in.readMessage(ProcessTree.parser(), ExtensionRegistryLite.getEmptyRegistry()));
        } else if (tag == CompressedPackets.TAG && outer) {
          CompressedPackets.forEach(input, in.readBytes(), (inner, from, size) -> scan(input, inner, from, size, false));
        } else {
          in.skipField(tag);
        }
      }
    } catch (InvalidProtocolBufferException e) {
      throw malformed(input, length, !outer, e);
    }
  }

  /** A packet protobuf refused: {@code inner} when it came out of the compressed packets of the packet at the input's offset. */
  static TraceFormatException malformed(PacketInput input, int length, boolean inner, InvalidProtocolBufferException e) {
    return TraceFormatException.atOffset(input.file(), input.packetOffset(), (inner ? "compressed packets: a " : "")
        + "packet of " + length + " bytes that protobuf cannot decode: " + e.getMessage());
  }

  private void add(TrackDescriptor track) {
    int index = trackIndex.get(track.getUuid());
    if (index == LongIntMap.ABSENT) {
      trackIndex.put(track.getUuid(), tracks.size());
      tracks.add(track);
    } else {
      // A writer repeats its descriptors (after each clearing of its incremental state); a later
      // one may name what an earlier one did not.
      tracks.set(index, tracks.get(index).toBuilder().mergeFrom(track).build());
    }
    if (track.hasProcess()) {
      ProcessDescriptor process = track.getProcess();
      String name = process.hasProcessName() ? process.getProcessName()
          : process.getCmdlineCount() > 0 ? process.getCmdline(0) : null;
      nameProcess(process.getPid(), name);
    }
    if (track.hasThread()) {
      ThreadDescriptor thread = track.getThread();
      threadProcesses.put(thread.getTid(), thread.getPid());
      if (thread.hasThreadName()) {
        threadNames.put(thread.getTid(), thread.getThreadName());
      }
    }
  }

  private void add(ProcessTree tree) {
    for (ProcessTree.Process process : tree.getProcessesList()) {
      nameProcess(process.getPid(), process.getCmdlineCount() > 0 ? process.getCmdline(0) : null);
      threadProcesses.put((long) process.getPid(), process.getPid());
    }
    for (ProcessTree.Thread thread : tree.getThreadsList()) {
      if (thread.hasTgid()) {
        threadProcesses.put((long) thread.getTid(), thread.getTgid());
      }
      if (thread.hasName()) {
        threadNames.put((long) thread.getTid(), thread.getName());
      }
    }
  }

  private void nameProcess(int pid, String name) {
    if (name != null && !name.isEmpty()) {
      processNames.put(pid, name);
    }
  }

  /** The index of the track {@code uuid} among the described ones, or {@link LongIntMap#ABSENT}. */
  int track(long uuid) {
    return trackIndex.get(uuid);
  }

  int trackCount() {
    return tracks.size();
  }

  TrackDescriptor descriptor(int track) {
    return tracks.get(track);
  }

  /** {@link #PROCESS}, {@link #THREAD}, {@link #COUNTER} or {@link #OTHER}. */
  int kind(int track) {
    TrackDescriptor descriptor = tracks.get(track);
    return descriptor.hasCounter() ? COUNTER : descriptor.hasThread() ? THREAD : descriptor.hasProcess() ? PROCESS : OTHER;
  }

  /** The track's own name, or null. */
  String name(int track) {
    TrackDescriptor descriptor = tracks.get(track);
    return switch (descriptor.getStaticOrDynamicNameCase()) {
      case NAME -> descriptor.getName();
      case STATIC_NAME -> descriptor.getStaticName();
      case ATRACE_NAME -> descriptor.getAtraceName();
      default -> null;
    };
  }

  String processName(int pid) {
    return processNames.get(pid);
  }

  /** The process of thread {@code tid}, or null when no descriptor or process tree said. */
  Integer processOf(long tid) {
    return threadProcesses.get(tid);
  }

  String threadName(long tid) {
    return threadNames.get(tid);
  }
}
