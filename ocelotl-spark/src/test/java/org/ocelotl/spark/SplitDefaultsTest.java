package org.ocelotl.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.LongStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/** How the jobs split their work by default: the import's ranges and the model's shares of files. */
class SplitDefaultsTest {
  static final long MIB = 1L << 20;

  @Test
  void rangesFillEveryCore() {
    // The large SimGrid trace (297 MB): 3 ranges of 128 MiB before; 4 equal ones on 2 cores, 3 on 1.
    assertEquals(74_271_404, PajeImportJob.defaultRangeBytes(297_085_616, 2));
    assertEquals(99_028_539, PajeImportJob.defaultRangeBytes(297_085_616, 1));
    // Small traces: one range per core; at most 128 MiB whatever the cores.
    assertEquals(150_000, PajeImportJob.defaultRangeBytes(300_000, 2));
    assertEquals(128 * MIB, PajeImportJob.defaultRangeBytes(1024 * MIB, 1));
    assertEquals(64 * MIB, PajeImportJob.defaultRangeBytes(1024 * MIB, 16));
    assertEquals(1, PajeImportJob.defaultRangeBytes(0, 4));
  }

  static List<FileStatus> files(long... lengths) {
    return LongStream.range(0, lengths.length)
        .mapToObj(i -> new FileStatus(lengths[(int) i], false, 1, 1, 0, new Path("/d/part-" + i))).toList();
  }

  static List<List<String>> shares(int tasks, long... lengths) {
    return ModelJob.shares(files(lengths), tasks).stream()
        .map(share -> share.stream().map(f -> f.substring("/d/part-".length())).toList()).toList();
  }

  @Test
  void sharesOfAboutEqualBytes() {
    // Spark's slices of the list (equal counts) would give {0,1,2} and {3,4,5}: 102 and 3 bytes.
    assertEquals(List.of(List.of("0"), List.of("1", "2", "3", "4", "5")), shares(2, 100, 1, 1, 1, 1, 1));
    assertEquals(List.of(List.of("0", "1", "2"), List.of("3", "4", "5")), shares(2, 16, 16, 2, 16, 16, 2));
    assertEquals(List.of(List.of("0"), List.of("1"), List.of("2")), shares(3, 1, 100, 1));
    // No share left empty, whatever the sizes.
    assertEquals(List.of(List.of("0"), List.of("1"), List.of("2", "3")), shares(3, 100, 1, 1, 1));
    assertEquals(List.of(List.of("0", "1"), List.of("2"), List.of("3")), shares(3, 1, 1, 1, 100));
    assertEquals(List.of(List.of("0", "1", "2", "3")), shares(1, 5, 6, 7, 8));
    assertEquals(List.of(List.of("0"), List.of("1")), shares(2, 0, 0));
  }
}
