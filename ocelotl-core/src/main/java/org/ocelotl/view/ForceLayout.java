package org.ocelotl.view;

import java.util.Arrays;

/**
 * A deterministic force-directed layout (Fruchterman and Reingold, 1991, with their grid
 * variant): connected nodes attract, every pair closer than twice the ideal distance repels,
 * the moves are capped by a temperature that cools linearly. Repulsion is computed only within
 * neighbouring cells of a grid of that size, so an iteration costs about O(n + edges) instead of
 * O(n²): a few thousand nodes lay out in well under a second.
 *
 * <p>No randomness: the start positions are the caller's, the iteration order is the node order
 * and the count is fixed, so the same graph gets the same picture in every run.
 */
public final class ForceLayout {
  /** Iterations: enough for trees and platform graphs of a few thousand nodes to settle. */
  public static final int ITERATIONS = 120;

  private ForceLayout() {}

  /**
   * Positions of n nodes in the unit square.
   *
   * @param x        start abscissae (not modified)
   * @param y        start ordinates (not modified)
   * @param edgeA    one end of each edge
   * @param edgeB    the other end
   * @param weight   each edge's pull (1 for a plain edge)
   * @return {x[], y[]} normalised to [0, 1]²
   */
  public static double[][] layout(double[] x, double[] y, int[] edgeA, int[] edgeB, double[] weight, int iterations) {
    int n = x.length;
    double[] px = x.clone();
    double[] py = y.clone();
    if (n <= 1) {
      return normalised(px, py);
    }
    double k = Math.sqrt(1.0 / n); // ideal distance in the unit square
    double[] dx = new double[n];
    double[] dy = new double[n];
    int cells = Math.max(1, (int) Math.floor(1 / (2 * k)));
    int[] head = new int[cells * cells];
    int[] next = new int[n];
    for (int it = 0; it < iterations; it++) {
      double temperature = 0.1 * (1 - (double) it / iterations) + 1e-4;
      Arrays.fill(dx, 0);
      Arrays.fill(dy, 0);
      bucket(px, py, cells, head, next);
      for (int i = 0; i < n; i++) {
        int cx = cell(px[i], cells);
        int cy = cell(py[i], cells);
        for (int gx = Math.max(0, cx - 1); gx <= Math.min(cells - 1, cx + 1); gx++) {
          for (int gy = Math.max(0, cy - 1); gy <= Math.min(cells - 1, cy + 1); gy++) {
            for (int j = head[gx * cells + gy]; j >= 0; j = next[j]) {
              if (j == i) {
                continue;
              }
              double ddx = px[i] - px[j];
              double ddy = py[i] - py[j];
              double d2 = ddx * ddx + ddy * ddy;
              if (d2 == 0) { // coincident: push apart along a direction fixed by the indices
                ddx = 1e-6 * (i < j ? 1 : -1);
                ddy = 1e-6 * ((i + j) % 2 == 0 ? 1 : -1);
                d2 = ddx * ddx + ddy * ddy;
              }
              if (d2 < 4 * k * k) {
                double f = k * k / d2;
                dx[i] += ddx * f;
                dy[i] += ddy * f;
              }
            }
          }
        }
      }
      for (int e = 0; e < edgeA.length; e++) {
        int a = edgeA[e];
        int b = edgeB[e];
        double ddx = px[a] - px[b];
        double ddy = py[a] - py[b];
        double d = Math.sqrt(ddx * ddx + ddy * ddy);
        double f = weight[e] * d / k; // |force| = d² / k, along the unit vector
        dx[a] -= ddx * f;
        dy[a] -= ddy * f;
        dx[b] += ddx * f;
        dy[b] += ddy * f;
      }
      for (int i = 0; i < n; i++) {
        double d = Math.sqrt(dx[i] * dx[i] + dy[i] * dy[i]);
        if (d > 0) {
          double step = Math.min(d, temperature);
          px[i] = clamp(px[i] + dx[i] / d * step);
          py[i] = clamp(py[i] + dy[i] / d * step);
        }
      }
    }
    return normalised(px, py);
  }

  private static void bucket(double[] px, double[] py, int cells, int[] head, int[] next) {
    Arrays.fill(head, -1);
    for (int i = px.length - 1; i >= 0; i--) { // reverse, so each list runs in node order
      int c = cell(px[i], cells) * cells + cell(py[i], cells);
      next[i] = head[c];
      head[c] = i;
    }
  }

  private static int cell(double v, int cells) {
    return Math.min(cells - 1, Math.max(0, (int) (v * cells)));
  }

  private static double clamp(double v) {
    return Math.max(0, Math.min(1, v));
  }

  /** Stretched to fill [0.05, 0.95]² (the margin keeps shapes inside), aspect kept. */
  private static double[][] normalised(double[] px, double[] py) {
    double minX = Arrays.stream(px).min().orElse(0);
    double maxX = Arrays.stream(px).max().orElse(0);
    double minY = Arrays.stream(py).min().orElse(0);
    double maxY = Arrays.stream(py).max().orElse(0);
    double span = Math.max(maxX - minX, maxY - minY);
    double[] nx = new double[px.length];
    double[] ny = new double[py.length];
    for (int i = 0; i < px.length; i++) {
      nx[i] = span > 0 ? 0.05 + 0.9 * ((px[i] - minX) / span + (span - (maxX - minX)) / span / 2) : 0.5;
      ny[i] = span > 0 ? 0.05 + 0.9 * ((py[i] - minY) / span + (span - (maxY - minY)) / span / 2) : 0.5;
    }
    return new double[][] {nx, ny};
  }
}
