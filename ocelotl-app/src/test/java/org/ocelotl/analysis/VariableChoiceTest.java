package org.ocelotl.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.model.ProducerTree;

/** The variable that varies most (decision 050), on models small enough to score by hand. */
class VariableChoiceTest {
  /**
   * Two leaves × four slices × two variables, values by leaf then slice then type:
   * <pre>
   *            slice 0   1   2   3
   *   cap  a       10  10   1  10     median 10: deviations 0 0 9 0 (/10)
   *        b        5   5   5   5     median 5:  0 0 0 0
   *   use  a        0   8   0   8     median 4:  4 4 4 4 (/8)
   *        b        8   0   8   0     median 4:  4 4 4 4
   * </pre>
   * cap: 0.9 − median(0 ×7, 0.9) = 0.9, at a, slice 2. use, busier and burstier: 0.5 − 0.5 = 0.
   */
  @Test
  void aCapacityConstantButInOneCellBeatsABurstyUse() {
    double[] v = {10, 0, 10, 8, 1, 0, 10, 8, 5, 8, 5, 0, 5, 8, 5, 0};
    MicroscopicModel model = new MicroscopicModel(ProducerTree.flat("r", List.of("a", "b")), 4, List.of("cap", "use"), v);
    VariableChoice c = VariableChoice.of(model, Map.of("cap", 3L, "use", 100L));
    assertEquals(List.of("cap", 0.9, "a", 2), List.of(c.type(), c.score(), c.producer(), c.slice()));
    assertEquals(Map.of("cap", 0.9, "use", 0.0), c.scores());
  }

  /** Nothing moves (a deviation under 1/256 is invisible): the most records decide. */
  @Test
  void withoutAVisibleDeviationTheMostRecordsDecide() {
    double[] v = {1000, 3, 1000, 3, 1001, 3, 1000, 3};
    MicroscopicModel model = new MicroscopicModel(ProducerTree.flat("r", List.of("a")), 4, List.of("cap", "lat"), v);
    VariableChoice c = VariableChoice.of(model, Map.of("cap", 5L, "lat", 7L));
    assertEquals(List.of("lat", 0.0), List.of(c.type(), c.score()));
    assertEquals(null, c.producer());
  }
}
