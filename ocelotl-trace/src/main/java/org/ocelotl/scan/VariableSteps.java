package org.ocelotl.scan;

import java.util.Arrays;

/**
 * Turns variable changes, read in time order, into the steps of their step functions and
 * adds each step into a model: a change (producer, type, t, v) holds v from t until the next
 * change of the same (producer, type), or until the producer ends.
 *
 * <p>Unlike states, a variable's value at the window start depends on its last change before
 * it, so changes are read from the beginning of the trace, in order, on one thread.
 */
public final class VariableSteps {
  private final ModelLayout layout;
  private final int[] storeTypeOfSlot;
  private final double[] lastTime;
  private final double[] lastValue;
  private final double[] cells;
  // Reused step columns: one chunk of changes yields at most as many steps.
  private int[] producer = new int[0];
  private int[] type = new int[0];
  private double[] from = new double[0];
  private double[] to = new double[0];
  private double[] value = new double[0];

  public VariableSteps(ModelLayout layout, double[] cells) {
    this.layout = layout;
    this.storeTypeOfSlot = new int[layout.types()];
    for (int u = 0; u < layout.typeOf().length; u++) {
      if (layout.typeOf()[u] >= 0) {
        storeTypeOfSlot[layout.typeOf()[u]] = u;
      }
    }
    // Keyed by (store producer, model type): the model's types only, which are few.
    this.lastTime = new double[layout.leafOf().length * layout.types()];
    this.lastValue = new double[lastTime.length];
    Arrays.fill(lastTime, Double.NaN);
    this.cells = cells;
  }

  /** The next changes, in time order (ties keep their order: the later one wins). */
  public void accept(int count, int[] changeProducer, int[] changeType, double[] time, double[] changeValue) {
    ensureCapacity(count);
    int steps = 0;
    for (int i = 0; i < count; i++) {
      int p = changeProducer[i];
      int u = changeType[i];
      int slot = layout.typeOf()[u];
      if (layout.leafOf()[p] < 0 || slot < 0) {
        continue;
      }
      int key = p * layout.types() + slot;
      if (!Double.isNaN(lastTime[key])) {
        producer[steps] = p;
        type[steps] = u;
        from[steps] = lastTime[key];
        to[steps] = time[i];
        value[steps] = lastValue[key];
        steps++;
      }
      lastTime[key] = time[i];
      lastValue[key] = changeValue[i];
    }
    ScanKernels.steps(layout, steps, producer, type, from, to, value, cells);
  }

  /** Closes every variable at the end of its producer ({@code producerEnd[p]}). */
  public void finish(double[] producerEnd) {
    int open = 0;
    for (double t : lastTime) {
      open += Double.isNaN(t) ? 0 : 1;
    }
    ensureCapacity(open);
    int steps = 0;
    for (int key = 0; key < lastTime.length; key++) {
      if (!Double.isNaN(lastTime[key])) {
        producer[steps] = key / layout.types();
        type[steps] = storeTypeOfSlot[key % layout.types()];
        from[steps] = lastTime[key];
        to[steps] = producerEnd[key / layout.types()];
        value[steps] = lastValue[key];
        steps++;
      }
    }
    ScanKernels.steps(layout, steps, producer, type, from, to, value, cells);
  }

  private void ensureCapacity(int count) {
    if (producer.length < count) {
      producer = new int[count];
      type = new int[count];
      from = new double[count];
      to = new double[count];
      value = new double[count];
    }
  }
}
