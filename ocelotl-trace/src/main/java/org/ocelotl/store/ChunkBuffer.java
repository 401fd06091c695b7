package org.ocelotl.store;

import java.util.Arrays;

/**
 * Records of one category being gathered into a chunk: appended by the reader's thread, then
 * sorted and written by the writer thread, then cleared and handed back. Primitive columns
 * only; nothing is allocated per record.
 */
final class ChunkBuffer {
  final StoreLayout.Columns layout;
  final double[][] doubles;
  final int[][] ints;
  int size;

  ChunkBuffer(StoreLayout.Columns layout, int capacity) {
    this.layout = layout;
    this.doubles = new double[layout.doubles()][capacity];
    this.ints = new int[layout.ints()][capacity];
  }

  boolean isFull() {
    return size == doubles[0].length;
  }

  double minTime() {
    double[] start = doubles[StoreLayout.SORT_COLUMN];
    double min = Double.POSITIVE_INFINITY;
    for (int i = 0; i < size; i++) {
      min = Math.min(min, start[i]);
    }
    return min;
  }

  double maxTime() {
    double[] end = doubles[layout.endColumn()];
    double max = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < size; i++) {
      max = Math.max(max, end[i]);
    }
    return max;
  }

  /**
   * Sorts the records by producer, then by the sort column, stably, using the writer thread's
   * scratch arrays, and leaves the chunk's producer directory in {@code scratch.directory}.
   *
   * @return the number of distinct producers (directory entries)
   */
  int sort(Scratch scratch) {
    int[] order = scratch.order(doubles[StoreLayout.SORT_COLUMN], ints[layout.producerColumn()], size);
    if (isIdentity(order, size)) {
      return scratch.producers;
    }
    for (int c = 0; c < doubles.length; c++) {
      double[] from = doubles[c];
      double[] to = scratch.doubles;
      for (int i = 0; i < size; i++) {
        to[i] = from[order[i]];
      }
      scratch.doubles = from;
      doubles[c] = to;
    }
    for (int c = 0; c < ints.length; c++) {
      int[] from = ints[c];
      int[] to = scratch.ints;
      for (int i = 0; i < size; i++) {
        to[i] = from[order[i]];
      }
      scratch.ints = from;
      ints[c] = to;
    }
    return scratch.producers;
  }

  private static boolean isIdentity(int[] order, int size) {
    for (int i = 0; i < size; i++) {
      if (order[i] != i) {
        return false;
      }
    }
    return true;
  }

  /**
   * Scratch arrays of the writer thread. Permuting a column swaps its array with the scratch
   * one, so arrays circulate between buffers instead of being copied back; all have the same
   * capacity, which is what makes the swap safe.
   */
  static final class Scratch {
    private final long[] packed;
    private final int[] grouped;
    private final int indexBits;
    /** Records per producer id while grouping; all zero between calls. */
    private int[] perProducer = new int[64];
    double[] doubles;
    int[] ints;
    /** The last chunk's producer directory: (producer, first record) pairs, producers increasing. */
    final int[] directory;
    int producers;

    Scratch(int capacity) {
      this.packed = new long[capacity];
      this.grouped = new int[capacity];
      this.directory = new int[2 * capacity];
      this.indexBits = Math.max(1, 32 - Integer.numberOfLeadingZeros(capacity - 1));
      this.doubles = new double[capacity];
      this.ints = new int[capacity];
    }

    /**
     * The stable permutation sorting records by producer, then by key; fills the producer
     * directory. A counting sort over the producers in arrival order (linear in the chunk, and
     * touching only the counters of the producers present), then a key sort of each producer's
     * run that is not already in key order — rare, since a reader sends one producer's records
     * mostly in time order, so most chunks need no comparison sort at all.
     */
    int[] order(double[] key, int[] producer, int size) {
      int distinct = 0;
      for (int i = 0; i < size; i++) {
        int p = producer[i];
        if (p >= perProducer.length) {
          perProducer = java.util.Arrays.copyOf(perProducer, Math.max(p + 1, 2 * perProducer.length));
        }
        if (perProducer[p]++ == 0) {
          directory[distinct++] = p;
        }
      }
      Arrays.sort(directory, 0, distinct);
      int first = 0;
      for (int d = distinct - 1; d >= 0; d--) { // spread the pairs from the back: no overlap
        directory[2 * d] = directory[d];
      }
      for (int d = 0; d < distinct; d++) {
        int p = directory[2 * d];
        directory[2 * d + 1] = first;
        first += perProducer[p];
        perProducer[p] = directory[2 * d + 1]; // from here on: the next free position of p
      }
      for (int i = 0; i < size; i++) {
        grouped[perProducer[producer[i]]++] = i;
      }
      for (int d = 0; d < distinct; d++) {
        int from = directory[2 * d + 1];
        int to = d + 1 < distinct ? directory[2 * d + 3] : size;
        if (!isSorted(key, from, to)) {
          sortByKey(key, from, to);
        }
        perProducer[directory[2 * d]] = 0;
      }
      producers = distinct;
      return grouped;
    }

    private boolean isSorted(double[] key, int from, int to) {
      for (int j = from + 1; j < to; j++) {
        if (key[grouped[j]] < key[grouped[j - 1]]) {
          return false;
        }
      }
      return true;
    }

    /**
     * Sorts grouped[from, to) (record indexes, increasing) stably by key. Each key becomes a long
     * that orders like the double (sign-magnitude turned into two's complement), its low
     * {@code indexBits} bits replaced by the record index; Arrays.sort on these longs is a fast
     * primitive sort. Keys that differ only in the dropped low bits may come out in index order
     * rather than key order, and only such neighbours: an insertion pass on the exact keys, cheap
     * because the disorder left is tiny, makes the order exact. Equal keys stay in index order.
     */
    private void sortByKey(double[] key, int from, int to) {
      long mask = -1L << indexBits;
      for (int j = from; j < to; j++) {
        long bits = Double.doubleToRawLongBits(key[grouped[j]]);
        long ordered = bits ^ ((bits >> 63) & Long.MAX_VALUE);
        packed[j] = (ordered & mask) | grouped[j];
      }
      Arrays.sort(packed, from, to);
      long indexMask = ~mask;
      for (int j = from; j < to; j++) {
        grouped[j] = (int) (packed[j] & indexMask);
      }
      for (int j = from + 1; j < to; j++) {
        int moving = grouped[j];
        double k = key[moving];
        int m = j - 1;
        while (m >= from && key[grouped[m]] > k) {
          grouped[m + 1] = grouped[m];
          m--;
        }
        grouped[m + 1] = moving;
      }
    }
  }
}
