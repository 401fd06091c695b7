import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * Writes a synthetic Pajé trace for the Spark import benchmark (not a test): STATES states over
 * RANKS ranks (default 700) on 7 nodes, 10 state values drawn with a fixed seed. Every rank changes
 * state once per step (a PajeSetState line, so a line is a state), the ranks of a step a little
 * apart, so the lines are in time order as Pajé wants them.
 *
 *   java bench/GenPaje.java OUT.trace 100000000 [RANKS]
 */
public final class GenPaje {
  private static final int NODES = 7;
  private static final int VALUES = 10;
  /** A step lasts 1 ms: 10⁸ states over 700 ranks span 143 s. */
  private static final long STEP_NS = 1_000_000;

  public static void main(String[] args) throws IOException {
    Path out = Path.of(args[0]);
    long states = Long.parseLong(args[1]);
    int ranks = args.length > 2 ? Integer.parseInt(args[2]) : 700;
    SplittableRandom random = new SplittableRandom(42);
    try (OutputStream file = new BufferedOutputStream(Files.newOutputStream(out), 1 << 20)) {
      StringBuilder head = new StringBuilder();
      head.append("""
          %EventDef PajeDefineContainerType 0
          %       Alias string
          %       Type string
          %       Name string
          %EndEventDef
          %EventDef PajeDefineStateType 1
          %       Alias string
          %       Type string
          %       Name string
          %EndEventDef
          %EventDef PajeDefineEntityValue 2
          %       Alias string
          %       Type string
          %       Name string
          %       Color color
          %EndEventDef
          %EventDef PajeCreateContainer 3
          %       Time date
          %       Alias string
          %       Type string
          %       Container string
          %       Name string
          %EndEventDef
          %EventDef PajeSetState 4
          %       Time date
          %       Container string
          %       Type string
          %       Value string
          %EndEventDef
          0 N 0 Node
          0 R N Rank
          1 S R State
          """);
      for (int v = 0; v < VALUES; v++) {
        head.append("2 v").append(v).append(" S \"state-").append(v).append("\" \"")
            .append(v / 10.0).append(" 0.5 ").append(1 - v / 10.0).append("\"\n");
      }
      for (int n = 0; n < NODES; n++) {
        head.append("3 0.000000 n").append(n).append(" N 0 \"node-").append(n).append("\"\n");
      }
      for (int r = 0; r < ranks; r++) {
        head.append("3 0.000000 r").append(r).append(" R n").append(r % NODES).append(" \"rank-").append(r)
            .append("\"\n");
      }
      file.write(head.toString().getBytes(StandardCharsets.UTF_8));
      byte[] line = new byte[64];
      for (long s = 0; s < states; s++) {
        long step = s / ranks;
        int rank = (int) (s % ranks);
        long ns = step * STEP_NS + rank * (STEP_NS / ranks);
        int n = 0;
        line[n++] = '4';
        line[n++] = ' ';
        n = decimal(line, n, ns / 1_000_000_000L);
        line[n++] = '.';
        long fraction = ns % 1_000_000_000L / 1000; // microseconds: six decimals
        for (long d = 100_000; d > 0; d /= 10) {
          line[n++] = (byte) ('0' + fraction / d % 10);
        }
        line[n++] = ' ';
        line[n++] = 'r';
        n = decimal(line, n, rank);
        line[n++] = ' ';
        line[n++] = 'S';
        line[n++] = ' ';
        line[n++] = 'v';
        line[n++] = (byte) ('0' + random.nextInt(VALUES));
        line[n++] = '\n';
        file.write(line, 0, n);
      }
    }
  }

  private static int decimal(byte[] line, int n, long value) {
    String digits = Long.toString(value);
    for (int i = 0; i < digits.length(); i++) {
      line[n++] = (byte) digits.charAt(i);
    }
    return n;
  }
}
