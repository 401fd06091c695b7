package org.ocelotl.analysis;

import java.util.ArrayList;
import java.util.List;
import org.ocelotl.aggregation.Aggregation;
import org.ocelotl.aggregation.Outlier;
import org.ocelotl.aggregation.Partition;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.model.ProducerTree;
import org.ocelotl.scan.BuiltModel;
import org.ocelotl.view.TimeScale;

/**
 * The cells the partition shown hides, with what it was shown in.
 *
 * @param shown    the model, p and partition whose parts are ranked
 * @param outliers every deviating cell, highest score first (docs/aggregation.md)
 * @param limit    how many of each kind (who, when) the JSON form lists
 * @param byLink   who the states could not name, by the links' use, or null
 */
public record OutliersResult(Shown shown, List<Outlier> outliers, int limit, ByLink byLink) {
  public OutliersResult {
    outliers = List.copyOf(outliers);
  }

  /**
   * Who the states could not name, found by the links' use (decision 061): the producers behind the
   * link that departs most from the other links over a stretch, listed first. Null where the
   * states' largest departure names who, or the trace records no link use.
   *
   * @param site      the node of the shown tree behind the link (nancy-uplink: nancy)
   * @param link      the link's path
   * @param cell      the link's cell in the links' utilization model, ranked as one part: its slices
   *                  are the overview's, its score and worthUpTo in that model's units
   * @param use       the link's mean utilization over the cell (use over capacity)
   * @param othersUse the other links' mean utilization over the same slices
   * @param useElsewhere the link's mean utilization over the window's other slices
   */
  public record ByLink(int site, String link, Outlier cell, double use, double othersUse, double useElsewhere) {
    /**
     * Whether the link is busier over the cell than the other links over it and than itself over
     * the rest of the window: a slowed link's use over its capacity rises where its traffic waits
     * (nancy-uplink 15 % against 0.03 %), while the links that depart from the others by being idle
     * (a NIC of a host that waits) or busy all along (an uplink carries a site's traffic) make no
     * run wait.
     */
    public boolean busier() {
      return use > othersUse && use > useElsewhere;
    }

    static ByLink of(int site, String link, Outlier cell, MicroscopicModel links) {
      ProducerTree tree = links.tree();
      int from = tree.firstLeaf(cell.node());
      int to = from + tree.leafCount(cell.node());
      double[] sums = new double[3]; // the link over the cell, the others over it, the link elsewhere
      for (int leaf = 0; leaf < links.leaves(); leaf++) {
        for (int k = 0; k < links.slices(); k++) {
          boolean in = k >= cell.first() && k <= cell.last();
          boolean mine = leaf >= from && leaf < to;
          if (in || mine) {
            sums[in ? (mine ? 0 : 1) : 2] += links.value(leaf, k, 0);
          }
        }
      }
      int slices = cell.last() - cell.first() + 1;
      int leaves = to - from;
      int others = links.leaves() - leaves;
      int elsewhere = links.slices() - slices;
      return new ByLink(site, link, cell, sums[0] / (leaves * slices), others == 0 ? 0 : sums[1] / (others * slices),
          elsewhere == 0 ? 0 : sums[2] / (leaves * elsewhere));
    }
  }

  /**
   * The partition ranked: of a full answer, or of the first one of a spatiotemporal request (the
   * exact default p and its partition, or the partition at the request's p), which needs no
   * breakpoint search.
   *
   * @param defaultP the default p, NaN when not known (a request with p whose breakpoints are not searched)
   */
  public record Shown(String name, TraceSummary trace, BuiltModel built, Aggregation aggregation, double p,
      double defaultP, Partition partition, TimeScale timeScale) {
    static Shown of(AnalysisResult r) {
      Analysis a = r.analysis();
      return new Shown(r.name(), a.trace(), a.built(), a.aggregation(), r.p(), a.defaultP(), r.partition(),
          r.timeScale());
    }

    static Shown of(ProvisionalResult r) {
      return new Shown(r.trace().name(), r.trace(), r.built(), r.aggregation(), r.p(), r.defaultP(), r.partition(),
          r.timeScale());
    }
  }

  /** The JSON form: compact UTF-8, the same bytes from every front end. */
  public byte[] json() {
    return JsonForm.bytes(JsonForm.outliers(this));
  }

  /**
   * "when" for a stretch of its part (every producer of the part over some of its slices: when the
   * run departs), "who" for a subtree below the part's node (which producers depart from the others).
   */
  public static String kind(Outlier o, Partition partition) {
    return isWhen(o, partition) ? "when" : "who";
  }

  private static boolean isWhen(Outlier o, Partition partition) {
    return o.node() == partition.parts().get(o.part()).node();
  }

  /**
   * What the list shows (decision 061): the first {@code limit} *who* cells, then the first
   * {@code limit} *when* stretches, each in the order of {@link #outliers}. The who of a
   * perturbation comes before the run's own stretches: where the partition merges every producer,
   * the stretches of the whole run (how everyone waits for the slowed host) outscore the host that
   * makes them wait, and a list by score alone led with them.
   */
  public List<Outlier> listed() {
    List<Outlier> who = new ArrayList<>();
    List<Outlier> when = new ArrayList<>();
    for (Outlier o : outliers) {
      List<Outlier> kind = isWhen(o, shown.partition()) ? when : who;
      if (kind.size() < limit) {
        kind.add(o);
      }
    }
    who.addAll(when);
    return who;
  }

  /** How many of {@link #listed} are *who* cells: the first ones. */
  public int whoListed() {
    return (int) listed().stream().filter(o -> !isWhen(o, shown.partition())).count();
  }

  /** How many are worth telling apart at the p shown: what the caption counts as hidden. */
  public int hidden() {
    return hiddenAt(outliers, shown.p());
  }

  /** How many of the cells are worth telling apart at p (p below their {@link Outlier#worthUpTo()}). */
  public static int hiddenAt(List<Outlier> outliers, double p) {
    return (int) outliers.stream().filter(o -> o.worthUpTo() > p).count();
  }
}
