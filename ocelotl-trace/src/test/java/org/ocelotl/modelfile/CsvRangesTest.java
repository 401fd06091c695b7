package org.ocelotl.modelfile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.model.ProducerTree;

/**
 * A model file read in byte ranges on several threads (CsvCells) gives what one reading from the
 * first line to the last gives: the same model, or the same refusal naming the same line.
 */
class CsvRangesTest {
  private static final String[] PRODUCERS = {"p0", "p1", "p2", "p3", "\"q,1\"", "é", "\"r\"\"s\""};
  private static final String[] TYPES = {"u0", "u1", "u2", "\"t,x\""};
  private static final String[] VALUES = {"1.5", "0", " 2.25 ", "1e-5", "3", "0.1000000000000000055511151231257827"};
  private static final String[] ENDS = {"\n", "\r\n", "\r"};

  @TempDir Path dir;

  /** What a reading in {@code ranges} ranges gives: the model in full, or the refusal's message. */
  private String outcome(Path file, int ranges) throws IOException {
    try {
      MicroscopicModel model = ModelCsv.read(file, null, 0, ranges);
      ProducerTree tree = model.tree();
      List<String> leaves = new ArrayList<>();
      for (int leaf = 0; leaf < tree.leafCount(); leaf++) {
        leaves.add(tree.name(tree.leafNode(leaf)));
      }
      return "model " + leaves + " " + model.types() + " " + model.slices() + " " + Arrays.toString(model.values());
    } catch (ModelFormatException refused) {
      return "refused " + refused.getMessage();
    }
  }

  /**
   * Seeded random files: names quoted or not, in UTF-8, values in several forms, blank lines, line
   * ends mixed, and one line in three files spoilt (a field missing, a bad number, a duplicate
   * cell, an unterminated quote, bytes that are not UTF-8), read in 2 to 6 ranges.
   */
  @Test
  void rangesReadWhatOneReadingReads() throws IOException {
    long seed = 18_3;
    Random random = new Random(seed);
    int refused = 0;
    for (int round = 0; round < 400; round++) {
      List<byte[]> lines = randomLines(random, 1 + random.nextInt(60));
      if (random.nextInt(3) == 0) {
        int at = 1 + random.nextInt(lines.size() - 1);
        lines.set(at, spoilt(random, lines, at));
      }
      Path file = write(lines, random);
      String whole = outcome(file, 1);
      refused += whole.startsWith("refused") ? 1 : 0;
      for (int ranges = 2; ranges <= 6; ranges++) {
        assertEquals(whole, outcome(file, ranges), "seed " + seed + ", round " + round + ", " + ranges + " ranges");
      }
    }
    assertTrue(refused > 50 && refused < 350, refused + " of 400 files refused: the test would not see both outcomes");
  }

  /**
   * The line that starts each range and the line that ends the range before, spoilt in turn
   * without changing its length (so that the ranges start where they did): a bad number, a bad
   * slice, three fields, bytes that are not UTF-8, a copy of a cell of the other range. The
   * refusal names the spoilt line, as a reading from the start names it.
   */
  @Test
  void badLinesOnEitherSideOfARangeStartAreFoundAtTheirLine() throws IOException {
    long seed = 18_33;
    Random random = new Random(seed);
    int checked = 0;
    for (int round = 0; round < 60; round++) {
      String end = ENDS[random.nextInt(ENDS.length)];
      List<byte[]> lines = new ArrayList<>();
      lines.add(("producer,slice,type,value" + end).getBytes(StandardCharsets.UTF_8));
      TreeSet<String> cells = new TreeSet<>();
      while (cells.size() < 20 + random.nextInt(200)) { // lines of one length: any may copy another
        cells.add("p" + random.nextInt(10) + "," + random.nextInt(10) + ",u" + random.nextInt(10) + ","
            + random.nextInt(10) + ".5" + end);
      }
      List<String> shuffled = new ArrayList<>(cells);
      java.util.Collections.shuffle(shuffled, random);
      shuffled.forEach(line -> lines.add(line.getBytes(StandardCharsets.UTF_8)));
      int ranges = 2 + random.nextInt(3);
      for (int first : firstLinesOfRanges(lines, ranges)) {
        for (int at : new int[] {first - 1, first}) {
          if (at < 1) {
            continue;
          }
          for (int spoil = 0; spoil < 5; spoil++) {
            List<byte[]> bad = new ArrayList<>(lines);
            byte[] line = bad.get(at).clone();
            int other = at == first ? first - 1 : first; // the line across the range start
            switch (spoil) {
              case 0 -> line[line.length - end.length() - 3] = 'x';     // the value "x.5"
              case 1 -> line[3] = '-';                                    // the slice "-"
              case 2 -> line[2] = ';';                                    // three fields
              case 3 -> line[0] = (byte) 0xFF;                            // not UTF-8
              default -> line = other >= 1 ? bad.get(other).clone() : line; // a second value for a cell
            }
            bad.set(at, line);
            Path file = write(bad, null);
            assertArrayEquals(lineStarts(bad, ranges), starts(file, ranges), "the spoilt file keeps its ranges");
            String whole = outcome(file, 1);
            assertEquals(whole, outcome(file, ranges), "seed " + seed + ", round " + round + ", line " + (at + 1));
            if (spoil < 4) {
              assertTrue(whole.startsWith("refused " + file + ":" + (at + 1) + ": "), whole);
            }
            checked++;
          }
        }
      }
    }
    assertTrue(checked > 500, checked + " spoilt lines");
  }

  /**
   * A line too long for the reader (more than {@link LineSplitter#MAX_LINE} bytes) in the second
   * range is refused with its line number in the file.
   */
  @Test
  void aLineTooLongInALaterRangeIsRefusedWithItsLine() throws IOException {
    StringBuilder text = new StringBuilder("producer,slice,type,value\n");
    int lines = 1;
    while (text.length() < 3 * LineSplitter.MAX_LINE / 2) {
      text.append("p").append(lines % 7).append(',').append(lines).append(",u,1.25\n");
      lines++;
    }
    text.append("q,0,u,").append("1".repeat(LineSplitter.MAX_LINE)).append('\n').append("p0,0,u,1\n");
    Path file = Files.writeString(dir.resolve("long.csv"), text);
    assertEquals(2, starts(file, 2).length);
    String whole = outcome(file, 1);
    assertEquals("refused " + file + ":" + (lines + 1) + ": the line is longer than " + LineSplitter.MAX_LINE
        + " bytes: not a model file", whole);
    assertEquals(whole, outcome(file, 2));
  }

  /**
   * Every way to cut a short text with every kind of line end: each range starts at the first line
   * start at or after k · size / ranges, never between \r and \n.
   */
  @Test
  void rangesStartAtTheFirstLineStartAfterTheirShare() throws IOException {
    String text = "producer,slice,type,value\r\na,0,u,1\rb,0,u,1\n\r\n\nc,0,u,1\r\r\nd,1,u,2";
    Path file = Files.writeString(dir.resolve("m.csv"), text);
    List<byte[]> lines = new ArrayList<>();
    for (String line : text.split("(?<=\r\n)|(?<=\r)(?!\n)|(?<=\n)")) {
      lines.add(line.getBytes(StandardCharsets.UTF_8));
    }
    assertEquals(8, lines.size());
    for (int ranges = 2; ranges <= text.length() + 1; ranges++) {
      assertArrayEquals(lineStarts(lines, ranges), starts(file, ranges), ranges + " ranges");
    }
    assertEquals(outcome(file, 1), outcome(file, 5));
  }

  private static long[] starts(Path file, int ranges) throws IOException {
    try (FileChannel channel = FileChannel.open(file)) {
      return CsvCells.lineStarts(channel, ranges);
    }
  }

  /** The ranges' starts as the definition has them: after each line, the first start at or after k · size / ranges. */
  private static long[] lineStarts(List<byte[]> lines, int ranges) {
    long size = lines.stream().mapToLong(line -> line.length).sum();
    List<Long> starts = new ArrayList<>(List.of(0L));
    for (int k = 1; k < ranges; k++) {
      long offset = 0;
      for (byte[] line : lines) {
        offset += line.length;
        if (offset >= size * k / ranges) {
          break;
        }
      }
      if (offset > starts.get(starts.size() - 1) && offset < size) {
        starts.add(offset);
      }
    }
    return starts.stream().mapToLong(Long::longValue).toArray();
  }

  /** The index of the first line of each range after the first. */
  private static List<Integer> firstLinesOfRanges(List<byte[]> lines, int ranges) {
    long[] starts = lineStarts(lines, ranges);
    List<Integer> first = new ArrayList<>();
    long offset = 0;
    for (int i = 0; i < lines.size(); i++) {
      if (Arrays.binarySearch(starts, offset) > 0) {
        first.add(i);
      }
      offset += lines.get(i).length;
    }
    return first;
  }

  private static List<byte[]> randomLines(Random random, int cells) {
    List<byte[]> lines = new ArrayList<>();
    lines.add((random.nextBoolean() ? "\uFEFF" : "").concat("producer,slice,type,value").getBytes(StandardCharsets.UTF_8));
    TreeSet<String> seen = new TreeSet<>();
    while (lines.size() <= cells) {
      if (random.nextInt(10) == 0) {
        lines.add((random.nextBoolean() ? "" : " \t").getBytes(StandardCharsets.UTF_8));
        continue;
      }
      String key = PRODUCERS[random.nextInt(PRODUCERS.length)] + "," + random.nextInt(12) + ","
          + TYPES[random.nextInt(TYPES.length)];
      if (seen.add(key)) {
        lines.add((key + "," + VALUES[random.nextInt(VALUES.length)]).getBytes(StandardCharsets.UTF_8));
      }
    }
    return lines;
  }

  private static byte[] spoilt(Random random, List<byte[]> lines, int at) {
    String line = new String(lines.get(at), StandardCharsets.UTF_8);
    return switch (random.nextInt(6)) {
      case 0 -> "p0,1,u0".getBytes(StandardCharsets.UTF_8);
      case 1 -> "p0,1,u0,x".getBytes(StandardCharsets.UTF_8);
      case 2 -> "p0,-1,u0,1".getBytes(StandardCharsets.UTF_8);
      case 3 -> lines.get(1 + random.nextInt(lines.size() - 1)); // a copy: a duplicate unless blank or itself
      case 4 -> ("\"" + line).getBytes(StandardCharsets.UTF_8);
      default -> new byte[] {'p', (byte) 0xC3, ',', '0', ',', 'u', '0', ',', '1'};
    };
  }

  /**
   * The lines with their line ends: random ones (the last line without one at times), or those
   * already in the lines when random is null.
   */
  private Path write(List<byte[]> lines, Random random) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    boolean lastEnded = random == null || random.nextBoolean();
    for (int i = 0; i < lines.size(); i++) {
      bytes.writeBytes(lines.get(i));
      if (random != null && (i + 1 < lines.size() || lastEnded)) {
        bytes.writeBytes(ENDS[random.nextInt(ENDS.length)].getBytes(StandardCharsets.US_ASCII));
      }
    }
    return Files.write(dir.resolve("m.csv"), bytes.toByteArray());
  }
}
