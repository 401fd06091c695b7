package org.ocelotl.workspace;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.ocelotl.model.EventCategory;
import org.ocelotl.store.StoreWriter;
import org.ocelotl.trace.ReadOptions;
import org.ocelotl.trace.TraceFormat;
import org.ocelotl.trace.TraceFormatException;
import org.ocelotl.trace.TraceReader;
import org.ocelotl.trace.TraceSink;

/**
 * A line format for tests of the workspace, standing in for real readers:
 * <pre>
 * FAKE              first line
 * s START END       a state of producer 1
 * e TIME            an event of producer 1
 * forever           states without end, printing READY to stdout after 10 chunks (kill tests)
 * throw             the reader fails with an unchecked exception (a bug midway)
 * full              the reader fails as a write to a full disk does: "No space left on device"
 * anything else     malformed: an error, or skipped and counted when lenient
 * </pre>
 */
final class FakeFormat {
  static final AtomicInteger READS = new AtomicInteger();
  static final TraceFormat FORMAT = new TraceFormat("fake", "test lines", Reader::new,
      head -> new String(head, StandardCharsets.US_ASCII).startsWith("FAKE\n"));

  private FakeFormat() {}

  static Formats formats() {
    return new Formats(List.of(FORMAT));
  }

  static final class Reader implements TraceReader {
    @Override
    public void read(Path file, TraceSink sink, ReadOptions options) throws IOException {
      READS.incrementAndGet();
      sink.producer(0, "root", "ROOT", -1, 0);
      sink.producer(1, "p", "P", 0, 0);
      sink.eventType(0, "run", EventCategory.STATE, "S", "0 1 0");
      sink.eventType(1, "tick", EventCategory.EVENT, null, null);
      long skipped = 0;
      double end = 0;
      try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.US_ASCII)) {
        in.readLine();
        String line;
        long number = 1;
        while ((line = in.readLine()) != null) {
          number++;
          String[] f = line.split(" ");
          if (f[0].equals("s") && f.length == 3) {
            sink.state(1, 0, Double.parseDouble(f[1]), Double.parseDouble(f[2]), 0, -1);
            end = Math.max(end, Double.parseDouble(f[2]));
          } else if (f[0].equals("e") && f.length == 2) {
            sink.event(1, 1, Double.parseDouble(f[1]));
          } else if (f[0].equals("forever")) {
            forever(sink);
          } else if (f[0].equals("full")) {
            throw new IOException("No space left on device");
          } else if (f[0].equals("throw")) {
            throw new IllegalStateException("reader bug");
          } else if (options.lenient()) {
            skipped++;
          } else {
            throw TraceFormatException.atLine(file, number, "expected 's START END' or 'e TIME'", line);
          }
        }
      }
      if (skipped > 0) {
        sink.warning(skipped + " malformed lines skipped");
      }
      sink.end(0, end, "s");
    }

    private static void forever(TraceSink sink) {
      for (long i = 0; ; i++) {
        sink.state(1, 0, i, i + 1, 0, -1);
        if (i == 10L * StoreWriter.DEFAULT_CHUNK_CAPACITY) {
          System.out.println("READY");
          System.out.flush();
        }
      }
    }
  }

  /** Imports args[1] into the workspace args[0]: the child process of the kill test. */
  /** Imports args[1] into the workspace args[0], then prints how many times it read the trace. */
  public static void main(String[] args) throws IOException {
    Workspace.open(Path.of(args[0]), formats(), StoreWriter.DEFAULT_CHUNK_CAPACITY)
        .store(Path.of(args[1]), org.ocelotl.workspace.ImportOptions.DEFAULT, org.ocelotl.workspace.ImportProgress.NONE);
    System.out.println("READS " + READS.get());
  }
}
