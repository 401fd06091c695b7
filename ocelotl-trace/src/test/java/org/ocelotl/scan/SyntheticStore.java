package org.ocelotl.scan;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.ocelotl.model.EventCategory;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.StoreWriter;
import org.ocelotl.store.TraceStore;

/**
 * Stores of generated traces for cache tests and the scan benchmark: a root over
 * {@code groups} groups of leaves, each leaf a run of back-to-back states of random types
 * (durations in [0.5, 1.5) time units), generated in time order as a tracer would emit them,
 * plus one punctual event per state start and a variable changed every ten states.
 */
final class SyntheticStore {
  private SyntheticStore() {}

  static TraceStore write(Path dir, long seed, int leaves, int groups, int types, long states, int chunkCapacity)
      throws IOException {
    return write(dir, seed, leaves, groups, types, states, chunkCapacity, true);
  }

  /** @param extras whether to add the events and the variable (the benchmark wants states only) */
  static TraceStore write(Path dir, long seed, int leaves, int groups, int types, long states, int chunkCapacity,
      boolean extras) throws IOException {
    Files.createDirectories(dir);
    StoreWriter writer = new StoreWriter(dir, chunkCapacity);
    writer.producer(0, "root", "ROOT", -1, 0);
    for (int g = 0; g < groups; g++) {
      writer.producer(1 + g, "group-" + g, "GROUP", 0, 0);
    }
    int firstLeaf = 1 + groups;
    for (int leaf = 0; leaf < leaves; leaf++) {
      writer.producer(firstLeaf + leaf, "leaf-" + leaf, "LEAF", 1 + leaf % groups, 0);
    }
    for (int u = 0; u < types; u++) {
      writer.eventType(u, "state-" + u, EventCategory.STATE, "STATE", u + " 0 0");
    }
    writer.eventType(types, "mark", EventCategory.EVENT, null, null);
    writer.eventType(types + 1, "load", EventCategory.VARIABLE, null, null);
    SplittableRandom random = new SplittableRandom(seed);
    double[] clock = new double[leaves];
    long perLeaf = states / leaves;
    double end = 0;
    for (long round = 0; round < perLeaf; round++) {
      for (int leaf = 0; leaf < leaves; leaf++) {
        double start = clock[leaf];
        double stop = start + 0.5 + random.nextDouble();
        writer.state(firstLeaf + leaf, random.nextInt(types), start, stop, 0, -1);
        if (extras && random.nextInt(4) == 0) {
          writer.event(firstLeaf + leaf, types, start);
        }
        if (extras && round % 10 == 0) {
          writer.variable(firstLeaf + leaf, types + 1, start, random.nextInt(100));
        }
        clock[leaf] = stop;
        end = Math.max(end, stop);
      }
    }
    writer.end(0, end, "s");
    writer.finish(new StoreMetadata.Source(dir.resolve("synthetic.trace").toString(), states, seed, "seed-" + seed, "synthetic"));
    return TraceStore.open(dir);
  }
}
