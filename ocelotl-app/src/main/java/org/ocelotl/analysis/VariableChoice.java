package org.ocelotl.analysis;

import java.util.Arrays;
import java.util.Map;
import org.ocelotl.model.MicroscopicModel;

/**
 * The variable a variable mean shows when the type filter names none: the one where something
 * stands out in the picture (decision 050). A slowed uplink stands out in its capacity, which is
 * constant for each resource but in a few cells; a busy variable such as {@code bandwidth_used}
 * varies everywhere, so that nothing in it stands out.
 *
 * <p>The score works on the cells the heatmap draws (opacity = mean ÷ the variable's largest
 * mean): each cell's deviation from its leaf's median over the window, as a share of the largest
 * mean, so that resources whose levels differ but are each constant deviate nowhere; a variable's
 * score is its largest deviation minus the median deviation of its cells, so that a variable that
 * deviates everywhere scores low. The highest score is chosen; equal scores (all 0 on a trace
 * where no variable moves) fall back to the most records, the choice before this score. A score
 * the picture cannot show, under one of its 256 opacity levels, counts as 0: SimGrid writes a
 * profiled host's speed as the profile's factor (2.0 beside 1e9 flops), a change no cell shows.
 *
 * @param type     the variable chosen
 * @param score    its score, in [0, 1]
 * @param producer the leaf of its largest deviation (null when the score is 0)
 * @param slice    that deviation's slice (−1 when the score is 0)
 * @param scores   every variable's score, by name, in the model's order
 */
public record VariableChoice(String type, double score, String producer, int slice, Map<String, Double> scores) {
  /** The smallest deviation a cell's opacity shows: one level of 256. */
  static final double VISIBLE = 1.0 / 256;

  /**
   * The choice among the model's types, each a variable; {@code records} counts each type's
   * records, for ties.
   */
  static VariableChoice of(MicroscopicModel model, Map<String, Long> records) {
    Map<String, Double> scores = new java.util.LinkedHashMap<>();
    VariableChoice best = null;
    for (int t = 0; t < model.typeCount(); t++) {
      VariableChoice c = scored(model, t);
      scores.put(c.type(), c.score());
      if (best == null || c.score() > best.score()
          || c.score() == best.score() && records.getOrDefault(c.type(), 0L) > records.getOrDefault(best.type(), 0L)) {
        best = c;
      }
    }
    return new VariableChoice(best.type(), best.score(), best.producer(), best.slice(), scores);
  }

  /** One type's score and where it deviates most. */
  private static VariableChoice scored(MicroscopicModel model, int type) {
    int leaves = model.leaves();
    int slices = model.slices();
    double largest = 0;
    for (int leaf = 0; leaf < leaves; leaf++) {
      for (int s = 0; s < slices; s++) {
        largest = Math.max(largest, model.value(leaf, s, type));
      }
    }
    String name = model.types().get(type);
    if (largest == 0) {
      return new VariableChoice(name, 0, null, -1, Map.of());
    }
    double[] deviations = new double[leaves * slices];
    double[] row = new double[slices];
    double most = 0;
    int mostLeaf = -1;
    int mostSlice = -1;
    for (int leaf = 0; leaf < leaves; leaf++) {
      for (int s = 0; s < slices; s++) {
        row[s] = model.value(leaf, s, type);
      }
      double median = median(row.clone());
      for (int s = 0; s < slices; s++) {
        double d = Math.abs(row[s] - median) / largest;
        deviations[leaf * slices + s] = d;
        if (d > most) {
          most = d;
          mostLeaf = leaf;
          mostSlice = s;
        }
      }
    }
    double score = most - median(deviations);
    return score < VISIBLE ? new VariableChoice(name, 0, null, -1, Map.of())
        : new VariableChoice(name, score, model.tree().name(model.tree().leafNode(mostLeaf)), mostSlice, Map.of());
  }

  /** The median, the mean of the two middle values of an even count; sorts {@code values}. */
  private static double median(double[] values) {
    Arrays.sort(values);
    int n = values.length;
    return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
  }

  /**
   * What the caption adds after the variable's name: "varies most: 0.97, nancy-uplink at 8.0–8.1 s",
   * {@code when} being the slice's times.
   */
  String caption(String when) {
    return producer == null ? "most records, none varies"
        : String.format(java.util.Locale.ROOT, "varies most: %.2f, %s at %s", score, producer, when);
  }
}
