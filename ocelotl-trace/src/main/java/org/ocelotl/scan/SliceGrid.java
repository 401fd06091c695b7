package org.ocelotl.scan;

/**
 * N equal slices of a time window [start, end).
 *
 * <p>Slice k is [boundary(k), boundary(k+1)). Every kernel cuts time with these boundaries and
 * {@link #sliceOf} agrees with them exactly (it corrects the rounding of the division), so a
 * duration split over slices adds up to the duration, and no instant falls in two slices.
 */
public record SliceGrid(double start, double end, int slices) {
  public static final int MAX_SLICES = 10_000;

  public SliceGrid {
    if (!(end > start) || Double.isInfinite(start) || Double.isInfinite(end)) {
      throw new IllegalArgumentException("the window [" + start + ", " + end + ") is empty");
    }
    if (slices < 1 || slices > MAX_SLICES) {
      throw new IllegalArgumentException("the number of slices must be between 1 and " + MAX_SLICES + ", got " + slices);
    }
  }

  public double boundary(int k) {
    return k == slices ? end : start + (end - start) * k / slices;
  }

  public double width() {
    return (end - start) / slices;
  }

  /** The slice holding instant t, for start ≤ t &lt; end. */
  public int sliceOf(double t) {
    int k = (int) ((t - start) / (end - start) * slices);
    if (k >= slices) {
      k = slices - 1;
    } else if (k < 0) {
      k = 0;
    }
    // The division may round across a boundary by one ulp: step back to the slice whose
    // [boundary(k), boundary(k+1)) really holds t.
    if (t < boundary(k)) {
      k--;
    } else if (k + 1 < slices && t >= boundary(k + 1)) {
      k++;
    }
    return k;
  }
}
