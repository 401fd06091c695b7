package org.ocelotl.format.perfetto;

import java.util.ArrayList;
import java.util.List;
import org.ocelotl.format.TypeIds;
import org.ocelotl.format.perfetto.proto.FtraceEvent;
import org.ocelotl.format.perfetto.proto.FtraceEventBundle;
import org.ocelotl.format.perfetto.proto.SchedSwitchFtraceEvent;
import org.ocelotl.model.EventCategory;
import org.ocelotl.primitive.DoubleColumn;
import org.ocelotl.primitive.IntColumn;
import org.ocelotl.primitive.LongIntMap;
import org.ocelotl.trace.TraceSink;

/**
 * The kernel's {@code sched_switch} events (plain, or in the bundles' compact form) → what ran
 * where: on each CPU a state typed by the task that ran (its name when first seen), from the
 * switch that put it there to the next switch on that CPU; on each thread a state
 * {@code Running} over the same interval. The idle task (pid 0) writes nothing: a CPU's gaps are
 * its idle time. The first switch seen on a CPU only starts an interval (what ran before is known
 * from no switch), and the intervals still running at the end of the trace are closed there.
 *
 * <p>Waiting states (runnable, sleeping) are not derived: each CPU's bundles are in time order
 * but a thread moves between CPUs whose bundles interleave in the file, so its switch-out may
 * be read after its next switch-in; only the per-CPU intervals are in order as they are read.
 */
final class Scheduling {
  /** Not {@link LongIntMap#ABSENT}: a thread slot is looked up and compared with both. */
  private static final int IDLE = -3;
  private static final int UNKNOWN = -2;
  private final TraceSink sink;
  private final TypeIds types;
  private final Producers producers;
  private final Warnings warnings;
  private final Bounds bounds;
  private final LongIntMap cpuSlots = new LongIntMap();
  private final List<Long> cpuNumbers = new ArrayList<>();
  private final IntColumn cpuProducers = new IntColumn();
  /** Per CPU: the thread slot running (or IDLE, UNKNOWN) and since when. */
  private final IntColumn running = new IntColumn();
  private final DoubleColumn since = new DoubleColumn();
  private final LongIntMap threadSlots = new LongIntMap();
  private final IntColumn threadTids = new IntColumn();
  private final List<String> threadNames = new ArrayList<>();
  private final IntColumn threadProducers = new IntColumn();
  /** Per thread: the type of the CPU states while it runs. */
  private final IntColumn taskTypes = new IntColumn();
  private int runningType = -1;

  Scheduling(TraceSink sink, TypeIds types, Producers producers, Warnings warnings, Bounds bounds) {
    this.sink = sink;
    this.types = types;
    this.producers = producers;
    this.warnings = warnings;
    this.bounds = bounds;
  }

  void bundle(FtraceEventBundle bundle) {
    int cpu = cpuSlot(bundle.getCpu());
    if (bundle.getLostEvents()) {
      // Switches are missing before this bundle: what ran last is no longer known.
      running.set(cpu, UNKNOWN);
      warnings.add("ftrace bundles after lost events (the CPU's current task forgotten there)");
    }
    int ignored = 0;
    for (FtraceEvent event : bundle.getEventList()) {
      if (event.hasSchedSwitch()) {
        SchedSwitchFtraceEvent sched = event.getSchedSwitch();
        int next = sched.getNextPid();
        int thread = next == 0 ? IDLE : threadSlots.get(next);
        if (thread == LongIntMap.ABSENT) {
          thread = newThread(next, sched.getNextComm());
        }
        switchTo(cpu, event.getTimestamp(), thread);
      } else {
        ignored++;
      }
    }
    if (ignored > 0) {
      warnings.add("ftrace events other than sched_switch (ignored)", ignored);
    }
    if (bundle.hasCompactSched()) {
      compact(cpu, bundle.getCompactSched());
    }
  }

  /** The compact form: parallel arrays, timestamps as deltas from the previous switch's. */
  private void compact(int cpu, FtraceEventBundle.CompactSched sched) {
    int count = sched.getSwitchTimestampCount();
    if (sched.getSwitchNextPidCount() != count || sched.getSwitchNextCommIndexCount() != count) {
      warnings.add("compact sched_switch arrays of unequal lengths (read up to the shortest)");
      count = Math.min(count, Math.min(sched.getSwitchNextPidCount(), sched.getSwitchNextCommIndexCount()));
    }
    long time = 0;
    for (int i = 0; i < count; i++) {
      time += sched.getSwitchTimestamp(i);
      int next = sched.getSwitchNextPid(i);
      int thread = next == 0 ? IDLE : threadSlots.get(next);
      if (thread == LongIntMap.ABSENT) {
        int comm = sched.getSwitchNextCommIndex(i);
        if (comm < 0 || comm >= sched.getInternTableCount()) {
          warnings.add("compact sched_switch names beyond the intern table (thread named by its tid)");
        }
        thread = newThread(next, comm >= 0 && comm < sched.getInternTableCount() ? sched.getInternTable(comm) : null);
      }
      switchTo(cpu, time, thread);
    }
  }

  private void switchTo(int cpu, long timestamp, int thread) {
    double time = timestamp;
    bounds.see(time);
    int previous = running.get(cpu);
    if (previous >= 0) {
      double start = since.get(cpu);
      if (time >= start) {
        sink.state(cpuProducer(cpu, start), taskTypes.get(previous), start, time, 0, -1);
        sink.state(threadProducer(previous, start), runningType(), start, time, 0, -1);
      } else {
        warnings.add("sched_switch events earlier than the previous one on their CPU (interval dropped)");
      }
    }
    running.set(cpu, thread);
    since.set(cpu, time);
  }

  /** Closes what still runs on every CPU at {@code end}, the end of the trace. */
  void finish(double end) {
    for (int cpu = 0; cpu < running.size(); cpu++) {
      int thread = running.get(cpu);
      if (thread >= 0 && end >= since.get(cpu)) {
        double start = since.get(cpu);
        sink.state(cpuProducer(cpu, start), taskTypes.get(thread), start, end, 0, -1);
        sink.state(threadProducer(thread, start), runningType(), start, end, 0, -1);
      }
    }
  }

  private int cpuSlot(long cpu) {
    int slot = cpuSlots.get(cpu);
    if (slot == LongIntMap.ABSENT) {
      slot = running.size();
      cpuSlots.put(cpu, slot);
      cpuNumbers.add(cpu);
      cpuProducers.add(-1);
      running.add(UNKNOWN);
      since.add(0);
    }
    return slot;
  }

  private int newThread(int tid, String name) {
    int slot = threadTids.size();
    threadSlots.put(tid, slot);
    threadTids.add(tid);
    threadNames.add(name);
    threadProducers.add(-1);
    taskTypes.add(types.id(name == null || name.isEmpty() ? "tid " + tid : name, EventCategory.STATE, "task on CPU"));
    return slot;
  }

  private int cpuProducer(int cpu, double time) {
    if (cpuProducers.get(cpu) < 0) {
      cpuProducers.set(cpu, producers.cpu(cpuNumbers.get(cpu), time));
    }
    return cpuProducers.get(cpu);
  }

  private int threadProducer(int thread, double time) {
    if (threadProducers.get(thread) < 0) {
      threadProducers.set(thread, producers.thread(threadTids.get(thread), threadNames.get(thread), time));
    }
    return threadProducers.get(thread);
  }

  private int runningType() {
    if (runningType < 0) {
      runningType = types.id("Running", EventCategory.STATE, "thread state");
    }
    return runningType;
  }
}
