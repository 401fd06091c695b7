package org.ocelotl.format.perfetto;

import com.google.protobuf.CodedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.ocelotl.format.perfetto.proto.ClockSnapshot;
import org.ocelotl.format.perfetto.proto.CounterDescriptor;
import org.ocelotl.format.perfetto.proto.EventCategory;
import org.ocelotl.format.perfetto.proto.EventName;
import org.ocelotl.format.perfetto.proto.FtraceEvent;
import org.ocelotl.format.perfetto.proto.FtraceEventBundle;
import org.ocelotl.format.perfetto.proto.InternedData;
import org.ocelotl.format.perfetto.proto.ProcessDescriptor;
import org.ocelotl.format.perfetto.proto.ProcessTree;
import org.ocelotl.format.perfetto.proto.SchedSwitchFtraceEvent;
import org.ocelotl.format.perfetto.proto.ThreadDescriptor;
import org.ocelotl.format.perfetto.proto.TracePacket;
import org.ocelotl.format.perfetto.proto.TracePacketDefaults;
import org.ocelotl.format.perfetto.proto.TrackDescriptor;
import org.ocelotl.format.perfetto.proto.TrackEvent;
import org.ocelotl.format.perfetto.proto.TrackEventDefaults;

/**
 * Perfetto traces written with the classes generated from our schema subset: the small drawn
 * example of {@link PerfettoReaderTest} and, for bench/formats.sh, a large seeded one
 * ({@code main OUT RECORDS}).
 */
public final class PerfettoTraces {
  /** How long a round of {@link #large} lasts, in µs: more than its 8 events take (at most 49 µs each, one 20 times longer). */
  private static final long ROUND_US = 1_500;

  private PerfettoTraces() {
  }

  /** Bytes of a trace file holding {@code packets}: each one field 1 of a {@code Trace}. */
  static byte[] trace(List<TracePacket> packets) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(bytes);
    for (TracePacket packet : packets) {
      out.writeMessage(1, packet);
    }
    out.flush();
    return bytes.toByteArray();
  }

  private static TracePacket.Builder on(int sequence) {
    return TracePacket.newBuilder().setTrustedPacketSequenceId(sequence);
  }

  private static TrackEvent.Builder event(TrackEvent.Type type) {
    return TrackEvent.newBuilder().setType(type);
  }

  private static FtraceEvent sched(long time, int prev, String prevComm, long prevState, int next, String nextComm) {
    return FtraceEvent.newBuilder().setTimestamp(time).setPid(prev).setSchedSwitch(SchedSwitchFtraceEvent.newBuilder()
        .setPrevPid(prev).setPrevComm(prevComm).setPrevState(prevState).setPrevPrio(120)
        .setNextPid(next).setNextComm(nextComm).setNextPrio(120)).build();
  }

  /**
   * The drawn example (times in ns of boot time; PerfettoReaderTest lists what it reads to):
   * <pre>
   * sequence 1 (an SDK-like writer: clock 64, incremental, in µs from boot time 1,000,000;
   *             default track 11; names and category interned)
   *   tracks 10 process 100 "game", 11 thread 101 "main", 12 counter "fps" under 10
   *   main:  frame [1,010,000 … 1,050,000] ⊃ draw [1,015,000 … 1,035,000]; vsync at 1,040,000;
   *          frame again from 1,110,000, never ended
   *   fps:   59.5 at 1,050,000, 60 at 1,100,000
   * sequence 2 (absolute times, string names)
   *   tracks 21 thread 102 "worker" and 22 "requests" under 10; 23 counter "queue" under 21
   *          (incremental, × 2), described after its first value; 99 never described
   *   worker: compute [1,020,000 … 1,060,000] (categories cpu, work); sample at 1,080,000
   *           carrying queue's first value 7 (→ 14); queue += 3 (→ 20) at 1,085,000
   *   requests: GET / [1,030,000 … 1,090,000];  track 99: orphan at 1,070,000
   * sequence 3 (the kernel's)
   *   process tree: process 200 "/bin/server", its thread 201 "srv-io"
   *   cpu 0 (sched_switch): main from 1,000,500, srv-io from 1,040,500, idle from 1,045,000;
   *          an ftrace event of another kind at 1,046,000
   *   cpu 1 (compact): worker from 1,010,000, kworker/1:0 (tid 300, no process) from 1,015,000,
   *          idle from 1,045,000, worker from 1,065,000 to the end (1,110,000)
   * </pre>
   */
  static byte[] example() throws IOException {
    List<TracePacket> packets = new ArrayList<>();
    packets.add(on(1).setSequenceFlags(1).setTimestamp(1_000_000).setTimestampClockId(6)
        .setTracePacketDefaults(TracePacketDefaults.newBuilder().setTimestampClockId(64)
            .setTrackEventDefaults(TrackEventDefaults.newBuilder().setTrackUuid(11)))
        .setClockSnapshot(ClockSnapshot.newBuilder()
            .addClocks(ClockSnapshot.Clock.newBuilder().setClockId(6).setTimestamp(1_000_000))
            .addClocks(ClockSnapshot.Clock.newBuilder().setClockId(64).setTimestamp(0).setIsIncremental(true)
                .setUnitMultiplierNs(1000)))
        .build());
    packets.add(on(1).setTrackDescriptor(TrackDescriptor.newBuilder().setUuid(10)
        .setProcess(ProcessDescriptor.newBuilder().setPid(100).setProcessName("game"))).build());
    packets.add(on(1).setTrackDescriptor(TrackDescriptor.newBuilder().setUuid(11).setParentUuid(10)
        .setThread(ThreadDescriptor.newBuilder().setPid(100).setTid(101).setThreadName("main"))).build());
    packets.add(on(1).setTrackDescriptor(TrackDescriptor.newBuilder().setUuid(12).setParentUuid(10).setName("fps")
        .setCounter(CounterDescriptor.newBuilder())).build());
    packets.add(on(1).setTimestamp(10)
        .setInternedData(InternedData.newBuilder()
            .addEventNames(EventName.newBuilder().setIid(1).setName("frame"))
            .addEventNames(EventName.newBuilder().setIid(2).setName("draw"))
            .addEventCategories(EventCategory.newBuilder().setIid(1).setName("gfx")))
        .setTrackEvent(event(TrackEvent.Type.TYPE_SLICE_BEGIN).setNameIid(1).addCategoryIids(1)).build());
    packets.add(on(1).setTimestamp(5)
        .setTrackEvent(event(TrackEvent.Type.TYPE_SLICE_BEGIN).setNameIid(2).addCategoryIids(1)).build());
    packets.add(on(1).setTimestamp(20).setTrackEvent(event(TrackEvent.Type.TYPE_SLICE_END)).build());
    packets.add(on(1).setTimestamp(5)
        .setTrackEvent(event(TrackEvent.Type.TYPE_INSTANT).setName("vsync").addCategories("gfx")).build());
    packets.add(on(1).setTimestamp(10).setTrackEvent(event(TrackEvent.Type.TYPE_SLICE_END)).build());
    packets.add(on(1).setTimestamp(0)
        .setTrackEvent(event(TrackEvent.Type.TYPE_COUNTER).setTrackUuid(12).setDoubleCounterValue(59.5)).build());
    packets.add(on(1).setTimestamp(50)
        .setTrackEvent(event(TrackEvent.Type.TYPE_COUNTER).setTrackUuid(12).setCounterValue(60)).build());
    packets.add(on(1).setTimestamp(10)
        .setTrackEvent(event(TrackEvent.Type.TYPE_SLICE_BEGIN).setNameIid(1).addCategoryIids(1)).build());

    packets.add(on(2).setTrackDescriptor(TrackDescriptor.newBuilder().setUuid(21).setParentUuid(10)
        .setThread(ThreadDescriptor.newBuilder().setPid(100).setTid(102).setThreadName("worker"))).build());
    packets.add(on(2).setTrackDescriptor(TrackDescriptor.newBuilder().setUuid(22).setParentUuid(10)
        .setName("requests")).build());
    packets.add(on(2).setTimestamp(1_020_000).setTrackEvent(event(TrackEvent.Type.TYPE_SLICE_BEGIN).setTrackUuid(21)
        .setName("compute").addCategories("cpu").addCategories("work")).build());
    packets.add(on(2).setTimestamp(1_060_000).setTrackEvent(event(TrackEvent.Type.TYPE_SLICE_END).setTrackUuid(21)).build());
    packets.add(on(2).setTimestamp(1_030_000).setTrackEvent(event(TrackEvent.Type.TYPE_SLICE_BEGIN).setTrackUuid(22)
        .setName("GET /")).build());
    packets.add(on(2).setTimestamp(1_090_000).setTrackEvent(event(TrackEvent.Type.TYPE_SLICE_END).setTrackUuid(22)).build());
    packets.add(on(2).setTimestamp(1_070_000).setTrackEvent(event(TrackEvent.Type.TYPE_INSTANT).setTrackUuid(99)
        .setName("orphan")).build());
    packets.add(on(2).setTimestamp(1_080_000).setTrackEvent(event(TrackEvent.Type.TYPE_INSTANT).setTrackUuid(21)
        .setName("sample").addExtraCounterTrackUuids(23).addExtraCounterValues(7)).build());
    packets.add(on(2).setTimestamp(1_085_000).setTrackEvent(event(TrackEvent.Type.TYPE_COUNTER).setTrackUuid(23)
        .setCounterValue(3)).build());
    packets.add(on(2).setTrackDescriptor(TrackDescriptor.newBuilder().setUuid(23).setParentUuid(21).setName("queue")
        .setCounter(CounterDescriptor.newBuilder().setIsIncremental(true).setUnitMultiplier(2))).build());

    packets.add(on(3).setProcessTree(ProcessTree.newBuilder()
        .addProcesses(ProcessTree.Process.newBuilder().setPid(200).setPpid(1).addCmdline("/bin/server"))
        .addThreads(ProcessTree.Thread.newBuilder().setTid(201).setTgid(200).setName("srv-io"))).build());
    packets.add(on(3).setFtraceEvents(FtraceEventBundle.newBuilder().setCpu(0)
        .addEvent(sched(1_000_500, 0, "swapper/0", 0, 101, "main"))
        .addEvent(sched(1_040_500, 101, "main", 1, 201, "srv-io"))
        .addEvent(sched(1_045_000, 201, "srv-io", 1, 0, "swapper/0"))
        .addEvent(FtraceEvent.newBuilder().setTimestamp(1_046_000).setPid(0))).build());
    packets.add(on(3).setFtraceEvents(FtraceEventBundle.newBuilder().setCpu(1)
        .setCompactSched(FtraceEventBundle.CompactSched.newBuilder()
            .addInternTable("swapper/1").addInternTable("worker").addInternTable("kworker/1:0")
            .addSwitchTimestamp(1_010_000).addSwitchTimestamp(5_000).addSwitchTimestamp(30_000).addSwitchTimestamp(20_000)
            .addSwitchNextPid(102).addSwitchNextPid(300).addSwitchNextPid(0).addSwitchNextPid(102)
            .addSwitchNextCommIndex(1).addSwitchNextCommIndex(2).addSwitchNextCommIndex(0).addSwitchNextCommIndex(1)
            .addSwitchPrevState(0).addSwitchPrevState(0).addSwitchPrevState(1).addSwitchPrevState(0)
            .addSwitchNextPrio(120).addSwitchNextPrio(120).addSwitchNextPrio(120).addSwitchNextPrio(120))).build());
    return trace(packets);
  }

  /**
   * A large seeded trace: {@code threads} threads of one process, each writing nested slices (3
   * deep), instants and a counter on its own sequence with interned names and incremental µs
   * timestamps as Perfetto's SDK does, and 4 CPUs whose compact sched_switch bundles (64
   * switches each) run those threads. About {@code records} records: a slice, an instant, a
   * counter value, or half a switch (a switch writes a CPU state and a thread state). One
   * perturbation for the overview to find: over the middle fifth of the rounds, worker-0's io
   * slices last 20 times longer and the CPUs do not run worker-0. Rounds last 1.5 ms on every thread.
   */
  static void large(OutputStream stream, long records, long seed) throws IOException {
    CodedOutputStream out = CodedOutputStream.newInstance(stream, 1 << 16);
    SplittableRandom random = new SplittableRandom(seed);
    int threads = 8;
    int cpus = 4;
    long base = 5_000_000_000L;
    out.writeMessage(1, TracePacket.newBuilder().setTrackDescriptor(TrackDescriptor.newBuilder().setUuid(1)
        .setProcess(ProcessDescriptor.newBuilder().setPid(1000).setProcessName("bench"))).build());
    long[] clocks = new long[threads];
    for (int t = 0; t < threads; t++) {
      int sequence = t + 1;
      out.writeMessage(1, on(sequence).setSequenceFlags(1).setTimestamp(base).setTimestampClockId(6)
          .setTracePacketDefaults(TracePacketDefaults.newBuilder().setTimestampClockId(64)
              .setTrackEventDefaults(TrackEventDefaults.newBuilder().setTrackUuid(100 + t)))
          .setClockSnapshot(ClockSnapshot.newBuilder()
              .addClocks(ClockSnapshot.Clock.newBuilder().setClockId(6).setTimestamp(base))
              .addClocks(ClockSnapshot.Clock.newBuilder().setClockId(64).setTimestamp(0).setIsIncremental(true)
                  .setUnitMultiplierNs(1000)))
          .setInternedData(InternedData.newBuilder()
              .addEventCategories(EventCategory.newBuilder().setIid(1).setName("app"))
              .addEventNames(EventName.newBuilder().setIid(1).setName("step"))
              .addEventNames(EventName.newBuilder().setIid(2).setName("compute"))
              .addEventNames(EventName.newBuilder().setIid(3).setName("io"))
              .addEventNames(EventName.newBuilder().setIid(4).setName("tick")))
          .build());
      out.writeMessage(1, on(sequence).setTrackDescriptor(TrackDescriptor.newBuilder().setUuid(100 + t).setParentUuid(1)
          .setThread(ThreadDescriptor.newBuilder().setPid(1000).setTid(1001 + t).setThreadName("worker-" + t))).build());
      out.writeMessage(1, on(sequence).setTrackDescriptor(TrackDescriptor.newBuilder().setUuid(200 + t).setParentUuid(100 + t)
          .setName("queue-" + t).setCounter(CounterDescriptor.newBuilder())).build());
    }
    TracePacket.Builder packet = TracePacket.newBuilder();
    TrackEvent.Builder event = TrackEvent.newBuilder();
    long[] cpuTimes = new long[cpus];
    long written = 0;
    int round = 0;
    // Records per round: 5 per thread, and a switch bundle per CPU (128 records) every 8 rounds.
    long rounds = (long) (records / (5.0 * threads + 128.0 * cpus / 8));
    while (written < records) {
      boolean perturbed = round >= 2 * rounds / 5 && round < 3 * rounds / 5;
      // One round: every thread writes a step ⊃ (compute ⊃ io), a tick and a counter value.
      for (int t = 0; t < threads; t++) {
        int sequence = t + 1;
        long[] deltas = {random.nextInt(1, 50), random.nextInt(1, 50), random.nextInt(1, 50), random.nextInt(1, 50),
            random.nextInt(1, 50), random.nextInt(1, 50), random.nextInt(1, 50), random.nextInt(1, 50)};
        if (perturbed && t == 0) {
          deltas[3] *= 20;
        }
        // The counter value closes the round: every thread's round lasts ROUND_US, so that
        // rounds line up across threads (and with the CPUs' switches) whatever the slices took.
        deltas[7] = ROUND_US - (deltas[0] + deltas[1] + deltas[2] + deltas[3] + deltas[4] + deltas[5] + deltas[6]);
        int[] types = {1, 1, 1, 3, 2, 2, 2, 4};
        long[] names = {1, 2, 3, 4, 0, 0, 0, 0};
        for (int i = 0; i < deltas.length; i++) {
          clocks[t] += deltas[i];
          event.clear().setType(TrackEvent.Type.forNumber(types[i]));
          if (names[i] > 0) {
            event.setNameIid(names[i]).addCategoryIids(1);
          }
          if (types[i] == 4) {
            event.setTrackUuid(200 + t).setCounterValue(random.nextInt(0, 100));
          }
          out.writeMessage(1, packet.clear().setTrustedPacketSequenceId(sequence).setTimestamp(deltas[i])
              .setTrackEvent(event).build());
        }
        written += 5;
      }
      // Every 8 rounds, one compact bundle of 64 switches per CPU.
      if (++round % 8 == 0) {
        for (int c = 0; c < cpus; c++) {
          FtraceEventBundle.CompactSched.Builder sched = FtraceEventBundle.CompactSched.newBuilder();
          for (int t = 0; t < threads; t++) {
            sched.addInternTable("worker-" + t);
          }
          for (int i = 0; i < 64; i++) {
            // 64 switches over the 8 rounds' 12 ms: 187.5 µs apart on average.
            long delta = random.nextInt(1_000, 374_000);
            cpuTimes[c] += delta;
            // worker-0 waits for its long io while perturbed: the CPUs run the others.
            int thread = perturbed ? random.nextInt(1, threads) : random.nextInt(threads);
            // The first switch of a bundle is absolute, the next ones deltas.
            sched.addSwitchTimestamp(i == 0 ? base + cpuTimes[c] : delta).addSwitchNextPid(1001 + thread)
                .addSwitchNextCommIndex(thread).addSwitchPrevState(1).addSwitchNextPrio(120);
          }
          out.writeMessage(1, TracePacket.newBuilder().setTrustedPacketSequenceId(100)
              .setFtraceEvents(FtraceEventBundle.newBuilder().setCpu(c).setCompactSched(sched)).build());
          written += 128;
        }
      }
    }
    out.flush();
  }

  /** Writes {@link #large} to {@code args[0]} with about {@code args[1]} records (seed 17). */
  public static void main(String[] args) throws IOException {
    try (OutputStream stream = Files.newOutputStream(Path.of(args[0]))) {
      large(stream, Long.parseLong(args[1]), 17);
    }
  }
}
