package org.ocelotl.spark;

import java.util.Iterator;
import org.apache.spark.Partitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import scala.Tuple2;

/**
 * The tree reduction of the tasks' partial models ({@link PartialSums}) with a summation order that
 * does not depend on when tasks finish: the same dataset and request give the same bits on every
 * run. Spark's {@code treeReduce} does not promise that: its driver folds the results in the order
 * tasks complete, and its intermediate level in the order shuffle blocks arrive, and floating-point
 * addition is not associative.
 *
 * <p>The shape is {@code treeReduce}'s at its default depth 2: with n partials and a fan-in of
 * s = max(⌈√n⌉, 2), one intermediate level runs when n > s + ⌈n / s⌉ (the rule of Spark's
 * {@code treeAggregate}). It sends partial i to group ⌊i / s⌋ by a shuffle that sorts each group's
 * partials by index ({@code repartitionAndSortWithinPartitions}), where they are added in that
 * order. The driver then receives the (group) partials in partition order ({@code collect}) and adds
 * them in that order. So every cell is ((p₀ + p₁ + …) + (pₛ + …) + …), fixed by the partition
 * indexes alone.
 */
final class OrderedSum {
  private OrderedSum() {}

  /** The partials (one per partition) reduced to at most about √n partials, in partition order. */
  static JavaRDD<byte[]> reduce(JavaRDD<byte[]> partials) {
    int n = partials.getNumPartitions();
    int fanIn = fanIn(n);
    if (n <= fanIn + (n + fanIn - 1) / fanIn) {
      return partials;
    }
    JavaPairRDD<Integer, byte[]> indexed = JavaPairRDD.fromJavaRDD(partials.mapPartitionsWithIndex(
        (index, it) -> new IndexedIterator(index, it), true));
    return indexed.repartitionAndSortWithinPartitions(new Groups(n, fanIn)).values().mapPartitions(PartialSums::sum);
  }

  /** The fan-in of a depth-2 tree over {@code n} partials: {@code treeAggregate}'s scale. */
  static int fanIn(int n) {
    return Math.max((int) Math.ceil(Math.sqrt(n)), 2);
  }

  /** A partition's partials keyed by the partition's index. */
  private record IndexedIterator(int index, Iterator<byte[]> partials) implements Iterator<Tuple2<Integer, byte[]>> {
    @Override
    public boolean hasNext() {
      return partials.hasNext();
    }

    @Override
    public Tuple2<Integer, byte[]> next() {
      return new Tuple2<>(index, partials.next());
    }
  }

  /** Partial i to group ⌊i / fanIn⌋: contiguous runs of partitions. */
  private static final class Groups extends Partitioner {
    private final int partials;
    private final int fanIn;

    Groups(int partials, int fanIn) {
      this.partials = partials;
      this.fanIn = fanIn;
    }

    @Override
    public int numPartitions() {
      return (partials + fanIn - 1) / fanIn;
    }

    @Override
    public int getPartition(Object key) {
      return (Integer) key / fanIn;
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Groups g && g.partials == partials && g.fanIn == fanIn;
    }

    @Override
    public int hashCode() {
      return 31 * partials + fanIn;
    }
  }
}
