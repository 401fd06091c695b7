package org.ocelotl.format.perfetto;

import org.ocelotl.primitive.LongIntMap;
import org.ocelotl.trace.TraceSink;

/**
 * The producer tree, declared as records need it: root (the file) › processes › threads, a
 * {@code CPUs} node › one producer per CPU, and {@code counters} leaves for counter tracks that
 * hang on a process or on no thread. Processes and threads with no record stay undeclared: a
 * process scan lists every task of the machine, most of them idle in the trace.
 */
final class Producers {
  private final TraceSink sink;
  private final Descriptors descriptors;
  private final LongIntMap cpus = new LongIntMap();
  private final LongIntMap processes = new LongIntMap();
  private final LongIntMap threads = new LongIntMap();
  /** Producer → its {@code counters} leaf. */
  private final LongIntMap counterLeaves = new LongIntMap();
  private int next = 1;
  private int cpuNode = -1;
  private int orphanNode = -1;

  Producers(TraceSink sink, Descriptors descriptors, String traceName) {
    this.sink = sink;
    this.descriptors = descriptors;
    sink.producer(0, traceName, "trace", -1, 0);
  }

  int cpu(long cpu, double time) {
    int id = cpus.get(cpu);
    if (id == LongIntMap.ABSENT) {
      if (cpuNode < 0) {
        cpuNode = declare("CPUs", "cpus", 0, time);
      }
      id = declare("cpu " + cpu, "cpu", cpuNode, time);
      cpus.put(cpu, id);
    }
    return id;
  }

  int process(int pid, double time) {
    int id = processes.get(pid);
    if (id == LongIntMap.ABSENT) {
      String name = descriptors.processName(pid);
      id = declare(name == null ? "process " + pid : name + " (" + pid + ")", "process", 0, time);
      processes.put(pid, id);
    }
    return id;
  }

  /** Thread {@code tid}, under its process when known; {@code name} serves when no descriptor named it. */
  int thread(long tid, String name, double time) {
    int id = threads.get(tid);
    if (id == LongIntMap.ABSENT) {
      Integer pid = descriptors.processOf(tid);
      int parent;
      if (pid != null) {
        parent = process(pid, time);
      } else {
        if (orphanNode < 0) {
          orphanNode = declare("threads of unknown processes", "process", 0, time);
        }
        parent = orphanNode;
      }
      String known = descriptors.threadName(tid);
      String shown = known != null ? known : name;
      id = declare(shown == null || shown.isEmpty() ? "thread " + tid : shown + " (" + tid + ")", "thread", parent, time);
      threads.put(tid, id);
    }
    return id;
  }

  /** The {@code counters} leaf of {@code owner}, where the values of counter tracks hanging on it go. */
  int counters(int owner, double time) {
    int id = counterLeaves.get(owner);
    if (id == LongIntMap.ABSENT) {
      id = declare("counters", "counters", owner, time);
      counterLeaves.put(owner, id);
    }
    return id;
  }

  int declare(String name, String kind, int parent, double time) {
    sink.producer(next, name, kind, parent, time);
    return next++;
  }
}
