package org.ocelotl.testing;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A synthetic Pajé trace at the seeds' scale with a known truth (issue 28): a bulk-synchronous
 * program on ranks in a site › cabinet › host › rank hierarchy (768 ranks by default: 4 sites ×
 * 8 cabinets × 12 hosts × 2 ranks), each iteration a {@code compute} state, a {@code wait} state
 * until the slowest rank is done, then a {@code collective} state; and two injected perturbations:
 *
 * <ul>
 *   <li>one host computes {@value #HOST_SLOWDOWN}× slower over [{@value #HOST_FROM}, {@value
 *       #HOST_TO}) s: its ranks compute while every other rank waits;
 *   <li>one cabinet's collective takes {@value #CABINET_SLOWDOWN}× longer over [{@value
 *       #CABINET_FROM}, {@value #CABINET_TO}) s: its ranks sit in the collective while the others
 *       wait for them.
 * </ul>
 *
 * <p>A perturbation applies to the iterations that start inside its window, so it covers its window
 * to within one iteration. The trace lasts about {@value #NOMINAL_SECONDS} s whatever the number of
 * states: more states make shorter iterations, not a longer run. Every rank writes one {@code
 * PajeSetState} line per state, so a line is a state; lines are in time order within each
 * iteration (the order SimGrid writes them in), and each container's lines always are, which is
 * what a Pajé reader checks (decision 004). Every rank is destroyed at the end of the last iteration,
 * which ends its last state and the trace.
 *
 * <pre>
 *   java -cp ocelotl-trace/target/test-classes org.ocelotl.testing.SeedTrace OUT.trace STATES [SITES CABINETS HOSTS RANKS]
 * </pre>
 */
public final class SeedTrace {
  static final double HOST_FROM = 4.0;
  static final double HOST_TO = 5.5;
  static final double HOST_SLOWDOWN = 3;
  static final double CABINET_FROM = 7.0;
  static final double CABINET_TO = 7.5;
  static final double CABINET_SLOWDOWN = 4;
  static final double NOMINAL_SECONDS = 10;
  /** A nominal iteration: compute 0.7 units (±10 % noise per rank), collective 0.2 units. */
  private static final double COMPUTE = 0.7;
  private static final double NOISE = 0.1;
  private static final double COLLECTIVE = 0.2;
  private static final long NS = 1_000_000_000L;

  /** How many of each level: sites, cabinets per site, hosts per cabinet, ranks per host. */
  public record Shape(int sites, int cabinets, int hosts, int ranksPerHost) {
    /** The shape: 4 sites × 8 cabinets × 12 hosts × 2 ranks = 768 ranks. */
    public static final Shape SEED = new Shape(4, 8, 12, 2);

    public Shape {
      if (sites < 1 || cabinets < 1 || hosts < 1 || ranksPerHost < 1) {
        throw new IllegalArgumentException("every level needs at least one member: " + this);
      }
    }

    public int ranks() {
      return sites * cabinets * hosts * ranksPerHost;
    }
  }

  /**
   * One injected perturbation: the producer's name (a host or a cabinet, whose ranks all deviate),
   * the state that lasts longer there, and the window of iterations it applies to, in seconds.
   */
  public record Perturbation(String producer, String state, double start, double end) {}

  /** What a reader of the trace should find, and how long the trace lasts. */
  public record Truth(Perturbation slowHost, Perturbation slowCabinet, double duration, long states) {
    public List<Perturbation> perturbations() {
      return List.of(slowHost, slowCabinet);
    }
  }

  private SeedTrace() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 2 && args.length != 6) {
      System.err.println("usage: SeedTrace OUT.trace STATES [SITES CABINETS HOSTS RANKS_PER_HOST]");
      System.exit(2);
    }
    Shape shape = args.length == 6
        ? new Shape(Integer.parseInt(args[2]), Integer.parseInt(args[3]), Integer.parseInt(args[4]),
            Integer.parseInt(args[5]))
        : Shape.SEED;
    Truth truth = write(Path.of(args[0]), Long.parseLong(args[1]), shape, 42);
    System.out.printf("%s: %d ranks, %d states, %.3f s%n", args[0], shape.ranks(), truth.states(),
        truth.duration());
    for (Perturbation p : truth.perturbations()) {
      System.out.printf("  %s: %s longer over [%.3f, %.3f) s%n", p.producer(), p.state(), p.start(), p.end());
    }
  }

  /**
   * Writes about {@code states} states (a multiple of three states per rank, at least one
   * iteration) over the shape's ranks, the noise drawn from {@code seed}.
   */
  public static Truth write(Path out, long states, Shape shape, long seed) {
    int ranks = shape.ranks();
    long iterations = Math.max(1, states / (3L * ranks));
    double unit = unit(iterations);
    int slowHost = hostIndex(shape, shape.sites() / 2, shape.cabinets() / 2, shape.hosts() / 2);
    int slowCabinet = cabinetIndex(shape, shape.sites() - 1, (shape.cabinets() - 1) / 2);
    if (shape.sites() == 1 && shape.cabinets() > 1 && slowCabinet == slowHost / shape.hosts()) {
      slowCabinet = (slowCabinet + 1) % shape.cabinets(); // keep the two apart on a one-site shape
    }
    SplittableRandom random = new SplittableRandom(seed);
    long[] compute = new long[ranks];
    long[] order = new long[ranks];
    long time = 0;
    try (Writer writer = new Writer(Files.newOutputStream(out))) {
      writer.text(header(shape));
      for (long i = 0; i < iterations; i++) {
        double seconds = (double) time / NS;
        boolean hostSlow = seconds >= HOST_FROM && seconds < HOST_TO;
        boolean cabinetSlow = seconds >= CABINET_FROM && seconds < CABINET_TO;
        long collective = nanos(COLLECTIVE * unit);
        long slowCollective = cabinetSlow ? nanos(COLLECTIVE * CABINET_SLOWDOWN * unit) : collective;
        long length = 0;
        for (int r = 0; r < ranks; r++) {
          double work = COMPUTE * unit * (1 + NOISE * (2 * random.nextDouble() - 1));
          if (hostSlow && r / shape.ranksPerHost() == slowHost) {
            work *= HOST_SLOWDOWN;
          }
          compute[r] = Math.max(1, nanos(work));
          length = Math.max(length, compute[r] + (inCabinet(shape, r, slowCabinet) ? slowCollective : collective));
        }
        for (int r = 0; r < ranks; r++) {
          writer.state(time, r, 'c');
        }
        // Waits start as each rank finishes computing: in time order, ties by rank.
        for (int r = 0; r < ranks; r++) {
          order[r] = compute[r] << 20 | r;
        }
        Arrays.sort(order);
        for (long key : order) {
          writer.state(time + (key >>> 20), (int) (key & 0xFFFFF), 'w');
        }
        // Collectives start at the end of the iteration less their length: the slowed cabinet first.
        for (int pass = 0; pass < 2; pass++) {
          boolean slowPass = pass == 0;
          for (int r = 0; r < ranks; r++) {
            if (inCabinet(shape, r, slowCabinet) == slowPass) {
              writer.state(time + length - (slowPass ? slowCollective : collective), r, 'a');
            }
          }
        }
        time += length;
      }
      for (int r = 0; r < ranks; r++) {
        writer.destroy(time, r);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    double duration = (double) time / NS;
    return new Truth(
        new Perturbation(hostName(shape, slowHost), "compute", HOST_FROM, Math.min(HOST_TO, duration)),
        new Perturbation(cabinetName(shape, slowCabinet), "collective", CABINET_FROM,
            Math.min(CABINET_TO, duration)),
        duration, iterations * 3 * ranks);
  }

  /**
   * The length of a nominal unit such that the run lasts about {@link #NOMINAL_SECONDS}: the
   * windows hold iterations longer than nominal, so they hold fewer of them.
   */
  private static double unit(long iterations) {
    double nominal = COMPUTE * (1 + NOISE) + COLLECTIVE;
    double slowHost = COMPUTE * (1 + NOISE) * HOST_SLOWDOWN + COLLECTIVE;
    double slowCabinet = COMPUTE * (1 + NOISE) + COLLECTIVE * CABINET_SLOWDOWN;
    double hostWindow = HOST_TO - HOST_FROM;
    double cabinetWindow = CABINET_TO - CABINET_FROM;
    double iterationsPerUnit = (NOMINAL_SECONDS - hostWindow - cabinetWindow) / nominal
        + hostWindow / slowHost + cabinetWindow / slowCabinet;
    return iterationsPerUnit / iterations;
  }

  private static long nanos(double seconds) {
    return Math.round(seconds * NS);
  }

  private static int hostIndex(Shape shape, int site, int cabinet, int host) {
    return (site * shape.cabinets() + cabinet) * shape.hosts() + host;
  }

  private static int cabinetIndex(Shape shape, int site, int cabinet) {
    return site * shape.cabinets() + cabinet;
  }

  private static boolean inCabinet(Shape shape, int rank, int cabinet) {
    return rank / (shape.ranksPerHost() * shape.hosts()) == cabinet;
  }

  static String siteName(int site) {
    return "site-" + site;
  }

  static String cabinetName(Shape shape, int cabinet) {
    return "cab-" + cabinet / shape.cabinets() + "-" + cabinet % shape.cabinets();
  }

  static String hostName(Shape shape, int host) {
    int cabinet = host / shape.hosts();
    return "host-" + cabinet / shape.cabinets() + "-" + cabinet % shape.cabinets() + "-" + host % shape.hosts();
  }

  static String rankName(int rank) {
    return "rank-" + rank;
  }

  private static String header(Shape shape) {
    StringBuilder head = new StringBuilder("""
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
        %EventDef PajeDestroyContainer 5
        %       Time date
        %       Type string
        %       Name string
        %EndEventDef
        0 TS 0 Site
        0 TC TS Cabinet
        0 TH TC Host
        0 TR TH Rank
        1 S TR State
        2 c S compute "0.0 0.7 0.9"
        2 w S wait "0.9 0.6 0.1"
        2 a S collective "0.8 0.1 0.6"
        """);
    for (int s = 0; s < shape.sites(); s++) {
      head.append("3 0.000000000 s").append(s).append(" TS 0 ").append(siteName(s)).append('\n');
    }
    int cabinets = shape.sites() * shape.cabinets();
    for (int c = 0; c < cabinets; c++) {
      head.append("3 0.000000000 c").append(c).append(" TC s").append(c / shape.cabinets()).append(' ')
          .append(cabinetName(shape, c)).append('\n');
    }
    for (int h = 0; h < cabinets * shape.hosts(); h++) {
      head.append("3 0.000000000 h").append(h).append(" TH c").append(h / shape.hosts()).append(' ')
          .append(hostName(shape, h)).append('\n');
    }
    for (int r = 0; r < shape.ranks(); r++) {
      head.append("3 0.000000000 r").append(r).append(" TR h").append(r / shape.ranksPerHost()).append(' ')
          .append(rankName(r)).append('\n');
    }
    return head.toString();
  }

  /** Writes state lines as bytes, the time in seconds with nine decimals, without formatting objects. */
  private static final class Writer implements AutoCloseable {
    private final OutputStream out;
    private final byte[] line = new byte[64];

    Writer(OutputStream file) {
      out = new BufferedOutputStream(file, 1 << 20);
    }

    void text(String text) throws IOException {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }

    void state(long nanos, int rank, char value) throws IOException {
      int n = time('4', nanos);
      line[n++] = 'r';
      n = digits(rank, n);
      line[n++] = ' ';
      line[n++] = 'S';
      line[n++] = ' ';
      line[n++] = (byte) value;
      line[n++] = '\n';
      out.write(line, 0, n);
    }

    /** The rank's container ends with the run, and with it its last state. */
    void destroy(long nanos, int rank) throws IOException {
      int n = time('5', nanos);
      line[n++] = 'T';
      line[n++] = 'R';
      line[n++] = ' ';
      line[n++] = 'r';
      n = digits(rank, n);
      line[n++] = '\n';
      out.write(line, 0, n);
    }

    /** The event's id, then its time in seconds with nine decimals, each followed by a blank. */
    private int time(char event, long nanos) {
      int n = 0;
      line[n++] = (byte) event;
      line[n++] = ' ';
      n = digits(nanos / NS, n);
      line[n++] = '.';
      long fraction = nanos % NS;
      for (long unit = NS / 10; unit > 0; unit /= 10) {
        line[n++] = (byte) ('0' + fraction / unit % 10);
      }
      line[n++] = ' ';
      return n;
    }

    private int digits(long value, int at) {
      int end = at;
      do {
        line[end++] = (byte) ('0' + value % 10);
        value /= 10;
      } while (value > 0);
      for (int i = at, j = end - 1; i < j; i++, j--) {
        byte digit = line[i];
        line[i] = line[j];
        line[j] = digit;
      }
      return end;
    }

    @Override
    public void close() throws IOException {
      out.close();
    }
  }
}
