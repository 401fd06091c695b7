package org.ocelotl.aggregation;

import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A set of parts tiling the model, with its total gain and loss (SPEC.md §4).
 *
 * <p>The partitions of a breakpoint list know their gain, loss and size at once but build their
 * parts on first request: a large model has thousands of optima and a view shows one of them.
 * Equality compares parts, gain and loss.
 */
public final class Partition {
  private final double gain;
  private final double loss;
  private final int size;
  private Supplier<List<Part>> source; // null once the parts are built
  private volatile List<Part> parts;

  public Partition(List<Part> parts, double gain, double loss) {
    this.parts = List.copyOf(parts);
    this.size = this.parts.size();
    this.gain = gain;
    this.loss = loss;
  }

  /** A partition of known line and size whose parts the source builds when first asked. */
  Partition(int size, double gain, double loss, Supplier<List<Part>> source) {
    this.size = size;
    this.gain = gain;
    this.loss = loss;
    this.source = source;
  }

  public List<Part> parts() {
    List<Part> result = parts;
    if (result == null) {
      synchronized (this) {
        result = parts;
        if (result == null) {
          result = List.copyOf(source.get());
          parts = result;
          source = null;
        }
      }
    }
    return result;
  }

  /**
   * The parts, without keeping them when they were not built: built by the source, which builds
   * them again when {@link #parts} asks. For {@link PartsAhead}, which keeps every breakpoint's
   * parts as differences and must not hold each list whole.
   */
  List<Part> partsOnce() {
    List<Part> result = parts;
    if (result != null) {
      return result;
    }
    Supplier<List<Part>> from;
    synchronized (this) {
      if (parts != null) {
        return parts;
      }
      from = source;
    }
    return List.copyOf(from.get());
  }

  /**
   * Has parts not built yet built by {@code cheaper} instead of the source given at construction:
   * the same parts, in the same order, for less ({@link PartsAhead}'s look-up instead of a dynamic
   * programme). Nothing changes when they are built already.
   */
  synchronized void sourcedBy(Supplier<List<Part>> cheaper) {
    if (parts == null) {
      source = cheaper;
    }
  }

  /** Whether the parts are built already, so that asking for them costs nothing. */
  public boolean partsBuilt() {
    return parts != null;
  }

  public double gain() {
    return gain;
  }

  public double loss() {
    return loss;
  }

  public int size() {
    return size;
  }

  /** p·gain − (1−p)·loss. */
  public double pic(double p) {
    return p * gain - (1 - p) * loss;
  }

  @Override
  public boolean equals(Object other) {
    return other == this || other instanceof Partition that
        && Double.compare(gain, that.gain) == 0 && Double.compare(loss, that.loss) == 0
        && size == that.size && parts().equals(that.parts());
  }

  @Override
  public int hashCode() {
    return Objects.hash(parts(), gain, loss);
  }

  @Override
  public String toString() {
    return "Partition[parts=" + parts() + ", gain=" + gain + ", loss=" + loss + "]";
  }
}
