package org.ocelotl.format.paje;

import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.ocelotl.trace.ReadOptions;

/**
 * What byte ranges would cost, by hand (not a test; docs/decisions/059):
 * {@code java -cp ... org.ocelotl.format.paje.PajeRangeSpeed TRACE BODY_ID [REPEATS]}. Each
 * repeat reads the trace sequentially on this thread, then in two halves cut at a line boundary,
 * each on a thread of its own: the first half as it is, the second after the header (the bytes
 * before the first line whose event id is {@code BODY_ID}, where the definitions are). There is no
 * stitch: the states open at the cut are lost, so this holds only for a trace whose body is made of
 * lines that need no earlier state (the seed traces' {@code PajeSetState}, id 4). Prints each
 * reading thread's CPU seconds, the figure that holds on a loaded machine.
 */
public final class PajeRangeSpeed {
  private PajeRangeSpeed() {}

  public static void main(String[] args) throws Exception {
    Path trace = Path.of(args[0]);
    byte[] body = (args[1] + " ").getBytes(StandardCharsets.US_ASCII);
    int repeats = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long size = Files.size(trace);
    byte[] header = header(trace, body);
    long cut = lineAfter(trace, size / 2);
    for (int run = 1; run <= repeats; run++) {
      long cpu0 = threads.getCurrentThreadCpuTime();
      PajeReader.readSequentially(trace, new PajeParseSpeed.CountingSink(), ReadOptions.STRICT);
      double sequential = (threads.getCurrentThreadCpuTime() - cpu0) / 1e9;
      double[] cpu = new double[2];
      Thread[] halves = new Thread[2];
      for (int h = 0; h < 2; h++) {
        int half = h;
        halves[h] = new Thread(() -> {
          try (FileChannel channel = FileChannel.open(trace)) {
            channel.position(half == 0 ? 0 : cut);
            InputStream range = limited(Channels.newInputStream(channel), half == 0 ? cut : size - cut);
            InputStream text = half == 0 ? range : new SequenceInputStream(new ByteArrayInputStream(header), range);
            new PajeImport(trace.toString(), new PajeParseSpeed.CountingSink(), ReadOptions.STRICT,
                new LineScanner(text, () -> { })).run();
          } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
          cpu[half] = threads.getCurrentThreadCpuTime() / 1e9;
        });
        halves[h].start();
      }
      for (Thread half : halves) {
        half.join();
      }
      System.out.printf("run %d: sequential reading thread %.2f s CPU; halves %.2f s and %.2f s CPU%n",
          run, sequential, cpu[0], cpu[1]);
    }
  }

  /** The bytes before the first line starting with {@code body} (searched in the first MiB). */
  private static byte[] header(Path trace, byte[] body) throws IOException {
    byte[] head;
    try (InputStream in = Files.newInputStream(trace)) {
      head = in.readNBytes(1 << 20);
    }
    for (int i = 0; i + body.length <= head.length; i++) {
      if ((i == 0 || head[i - 1] == '\n') && Arrays.equals(head, i, i + body.length, body, 0, body.length)) {
        return Arrays.copyOf(head, i);
      }
    }
    throw new IllegalArgumentException("no line starts with '" + new String(body, StandardCharsets.US_ASCII)
        + "' in the first MiB of " + trace);
  }

  /** The offset of the first line that starts after {@code offset}. */
  private static long lineAfter(Path trace, long offset) throws IOException {
    try (FileChannel channel = FileChannel.open(trace)) {
      ByteBuffer buffer = ByteBuffer.allocate(1 << 16);
      channel.read(buffer, offset);
      for (int i = 0; i < buffer.position(); i++) {
        if (buffer.get(i) == '\n') {
          return offset + i + 1;
        }
      }
    }
    throw new IllegalArgumentException("no line end within 64 KiB after byte " + offset);
  }

  /** The first {@code length} bytes of {@code in}. */
  private static InputStream limited(InputStream in, long length) {
    return new FilterInputStream(in) {
      private long left = length;

      @Override
      public int read(byte[] bytes, int offset, int count) throws IOException {
        if (left <= 0) {
          return -1;
        }
        int n = super.read(bytes, offset, (int) Math.min(count, left));
        if (n > 0) {
          left -= n;
        }
        return n;
      }
    };
  }
}
