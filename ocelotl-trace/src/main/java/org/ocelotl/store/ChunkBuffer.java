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

  private static boolean isSorted(double[] key, int size) {
    for (int i = 1; i < size; i++) {
      if (key[i] < key[i - 1]) {
        return false;
      }
    }
    return true;
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
    private final int[] order;
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
      this.order = new int[capacity];
      this.grouped = new int[capacity];
      this.directory = new int[2 * capacity];
      this.indexBits = Math.max(1, 32 - Integer.numberOfLeadingZeros(capacity - 1));
      this.doubles = new double[capacity];
      this.ints = new int[capacity];
    }

    /**
     * The stable sorting permutation of key[0..size). Each key becomes a long that orders like
     * the double (sign-magnitude turned into two's complement), its low {@code indexBits} bits
     * replaced by the record index; Arrays.sort on these longs is a fast primitive sort. Keys
     * that differ only in the dropped low bits may come out in index order rather than key
     * order, and only such neighbours: an insertion pass on the exact keys, cheap because the
     * disorder left is tiny, makes the order exact. Equal keys stay in index order (stable).
     */
    int[] order(double[] key, int size) {
      if (isSorted(key, size)) {
        for (int i = 0; i < size; i++) {
          order[i] = i;
        }
        return order;
      }
      long mask = -1L << indexBits;
      for (int i = 0; i < size; i++) {
        long bits = Double.doubleToRawLongBits(key[i]);
        long ordered = bits ^ ((bits >> 63) & Long.MAX_VALUE);
        packed[i] = (ordered & mask) | i;
      }
      Arrays.sort(packed, 0, size);
      long indexMask = ~mask;
      for (int i = 0; i < size; i++) {
        order[i] = (int) (packed[i] & indexMask);
      }
      for (int i = 1; i < size; i++) {
        int moving = order[i];
        double k = key[moving];
        int j = i - 1;
        while (j >= 0 && key[order[j]] > k) {
          order[j + 1] = order[j];
          j--;
        }
        order[j + 1] = moving;
      }
      return order;
    }

    /**
     * The stable permutation sorting records by producer, then by key; fills the producer
     * directory. A counting sort over the producers of the key order: linear in the chunk, and
     * touching only the counters of the producers present.
     */
    int[] order(double[] key, int[] producer, int size) {
      int[] byKey = order(key, size);
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
        int r = byKey[i];
        grouped[perProducer[producer[r]]++] = r;
      }
      for (int d = 0; d < distinct; d++) {
        perProducer[directory[2 * d]] = 0;
      }
      producers = distinct;
      return grouped;
    }
  }
}
