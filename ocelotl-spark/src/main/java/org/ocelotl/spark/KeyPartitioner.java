package org.ocelotl.spark;

import java.io.Serializable;
import org.apache.spark.Partitioner;

/** A shuffle's partitioner that sends each key where a function of the key says. */
final class KeyPartitioner<K> extends Partitioner {
  private static final long serialVersionUID = 1L;

  /** The partition of a key, in [0, partitions). */
  @FunctionalInterface
  interface Place<K> extends Serializable {
    int of(K key);
  }

  private final int partitions;
  private final Place<K> place;

  KeyPartitioner(int partitions, Place<K> place) {
    this.partitions = partitions;
    this.place = place;
  }

  @Override
  public int numPartitions() {
    return partitions;
  }

  @Override
  @SuppressWarnings("unchecked") // a shuffle hands its partitioner the keys of its own pairs
  public int getPartition(Object key) {
    return place.of((K) key);
  }
}
