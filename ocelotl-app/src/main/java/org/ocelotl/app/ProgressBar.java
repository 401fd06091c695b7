package org.ocelotl.app;

import java.io.PrintWriter;
import java.util.Locale;
import org.ocelotl.analysis.Progress;
import org.ocelotl.workspace.ImportProgress;

/**
 * The command line's progress report on stderr, fed by the same calls that feed the web UI's
 * (the importer's bytes and records, the analysis service's stages and the engine's units of
 * work). On a terminal, one line rewritten in place at most {@value #UPDATES_PER_SECOND} times a
 * second and erased at the end; elsewhere nothing, unless asked with {@code --progress}: then a
 * plain line per stage and at most one a second, fit for a log. Never cancels: the command line
 * stops with Ctrl-C.
 */
final class ProgressBar implements ImportProgress, Progress, AutoCloseable {
  static final int UPDATES_PER_SECOND = 10;
  private static final int WIDTH = 30;

  /** How the report is shown: not at all, rewritten in place, or as lines for a log. */
  enum Mode { OFF, TERMINAL, PLAIN }

  private final PrintWriter err;
  private final Mode mode;
  private final long intervalNanos;
  private volatile long lastNanos;
  private volatile String stage;
  private volatile long stageStart = System.nanoTime();
  private int drawnWidth;

  ProgressBar(PrintWriter err, Mode mode) {
    this.err = err;
    this.mode = mode;
    this.intervalNanos = mode == Mode.PLAIN ? 1_000_000_000L : 1_000_000_000L / UPDATES_PER_SECOND;
    this.lastNanos = System.nanoTime() - intervalNanos;
  }

  /** On a terminal, or in plain lines when {@code asked}; else silent, so scripts see only results. */
  static ProgressBar of(PrintWriter err, boolean asked) {
    return new ProgressBar(err, stderrIsTerminal() ? Mode.TERMINAL : asked ? Mode.PLAIN : Mode.OFF);
  }

  // The launcher tests stderr itself ([ -t 2 ]); the JDK only knows whether stdin and stdout are
  // a console, which is the best guess when the jar is run directly.
  private static boolean stderrIsTerminal() {
    String told = System.getProperty("ocelotl.stderr.terminal");
    return told != null ? Boolean.parseBoolean(told) : System.console() != null;
  }

  @Override
  public void update(long bytesRead, long totalBytes, long records) {
    if (due()) {
      show(importLine(bytesRead, totalBytes, records, seconds(stageStart)));
    }
  }

  /** Printed whether or not asked: it says why the command takes longer than usual. */
  @Override
  public void note(String message) {
    synchronized (this) {
      erase();
      err.println("ocelotl: " + message);
      err.flush();
    }
  }

  @Override
  public synchronized void stage(String name) {
    stage = name;
    stageStart = System.nanoTime();
    if (mode != Mode.OFF) {
      lastNanos = stageStart;
      show(name);
    }
  }

  @Override
  public void advanced(long done, long total) {
    if (due()) {
      show(stageLine(stage, done, total, seconds(stageStart)));
    }
  }

  @Override
  public void check() {}

  // Cheap when nothing is drawn (the engine calls this from several threads, often): one volatile read.
  private boolean due() {
    if (mode == Mode.OFF) {
      return false;
    }
    long now = System.nanoTime();
    long last = lastNanos;
    if (now - last < intervalNanos) {
      return false;
    }
    synchronized (this) {
      if (lastNanos != last) {
        return false; // another thread drew meanwhile
      }
      lastNanos = now;
      return true;
    }
  }

  private static double seconds(long since) {
    return (System.nanoTime() - since) / 1e9;
  }

  private synchronized void show(String line) {
    if (mode == Mode.TERMINAL) {
      err.print("\r" + line + " ".repeat(Math.max(0, drawnWidth - line.length())));
      drawnWidth = line.length();
    } else {
      err.println(line);
    }
    err.flush();
  }

  private void erase() {
    if (mode == Mode.TERMINAL && drawnWidth > 0) {
      err.print("\r" + " ".repeat(drawnWidth) + "\r");
      drawnWidth = 0;
    }
  }

  /** "importing [#####.....]  12.3/292.0 MB  1.2 M records/s  ETA 4 s". */
  static String importLine(long bytesRead, long totalBytes, long records, double seconds) {
    double fraction = totalBytes > 0 ? Math.min(1, (double) bytesRead / totalBytes) : 0;
    return String.format(Locale.ROOT, "importing %s %6.1f/%.1f MB  %5.2f M records/s  %s", bar(fraction),
        bytesRead / 1e6, totalBytes / 1e6, seconds > 0 ? records / seconds / 1e6 : 0.0, eta(fraction, seconds));
  }

  /**
   * "building the model [#####.....]  45 %  3.1 s  ETA 4 s" when the stage's units are counted,
   * "computing qualities and breakpoints  12,345 steps  3.1 s" when their total is unknown.
   */
  static String stageLine(String stage, long done, long total, double seconds) {
    String name = stage == null ? "working" : stage;
    if (total <= 0) {
      return String.format(Locale.ROOT, "%s  %,d steps  %.1f s", name, done, seconds);
    }
    double fraction = Math.min(1, (double) done / total);
    return String.format(Locale.ROOT, "%s %s %3d %%  %.1f s  %s", name, bar(fraction), Math.round(fraction * 100),
        seconds, eta(fraction, seconds));
  }

  private static String bar(double fraction) {
    int filled = (int) Math.round(fraction * WIDTH);
    return "[" + "#".repeat(filled) + ".".repeat(WIDTH - filled) + "]";
  }

  private static String eta(double fraction, double seconds) {
    return fraction > 0 && seconds > 0 ? "ETA " + Math.round(seconds * (1 - fraction) / fraction) + " s" : "ETA ?";
  }

  /** Erases the line on a terminal, so what follows starts clean. */
  @Override
  public synchronized void close() {
    erase();
    err.flush();
  }
}
