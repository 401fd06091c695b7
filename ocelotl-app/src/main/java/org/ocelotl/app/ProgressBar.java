package org.ocelotl.app;

import java.io.PrintWriter;
import org.ocelotl.workspace.ImportProgress;

/**
 * One line on stderr, rewritten in place at most {@value #UPDATES_PER_SECOND} times a second:
 * bytes read of the total, records per second, time left. Silent when not on a terminal, so
 * scripts and logs see only results.
 */
final class ProgressBar implements ImportProgress, AutoCloseable {
  static final int UPDATES_PER_SECOND = 10;
  private static final int WIDTH = 30;
  private final PrintWriter err;
  private final boolean enabled;
  private final long startNanos = System.nanoTime();
  private long lastNanos;
  private boolean drawn;

  private ProgressBar(PrintWriter err, boolean enabled) {
    this.err = err;
    this.enabled = enabled;
  }

  static ProgressBar onTerminal(PrintWriter err) {
    return new ProgressBar(err, System.console() != null);
  }

  @Override
  public void update(long bytesRead, long totalBytes, long records) {
    long now = System.nanoTime();
    if (!enabled || now - lastNanos < 1_000_000_000L / UPDATES_PER_SECOND) {
      return;
    }
    lastNanos = now;
    err.print("\r" + line(bytesRead, totalBytes, records, (now - startNanos) / 1e9));
    err.flush();
    drawn = true;
  }

  /** Printed whether or not on a terminal: it says why the command takes longer than usual. */
  @Override
  public void note(String message) {
    err.println("ocelotl: " + message);
    err.flush();
  }

  /** "[#####.....]  12.3/292.0 MB  1.2 M events/s  ETA 4 s". */
  static String line(long bytesRead, long totalBytes, long records, double seconds) {
    double fraction = totalBytes > 0 ? Math.min(1, (double) bytesRead / totalBytes) : 0;
    int filled = (int) Math.round(fraction * WIDTH);
    String eta = fraction > 0 && seconds > 0 ? Math.round(seconds * (1 - fraction) / fraction) + " s" : "?";
    return String.format("[%s%s] %6.1f/%.1f MB  %5.1f M events/s  ETA %s   ", "#".repeat(filled),
        ".".repeat(WIDTH - filled), bytesRead / 1e6, totalBytes / 1e6,
        seconds > 0 ? records / seconds / 1e6 : 0.0, eta);
  }

  /** Erases the line, so what follows starts clean. */
  @Override
  public void close() {
    if (drawn) {
      err.print("\r" + " ".repeat(line(0, 0, 0, 0).length() + 8) + "\r");
      err.flush();
    }
  }
}
