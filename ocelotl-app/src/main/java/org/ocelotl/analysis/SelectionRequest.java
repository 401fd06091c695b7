package org.ocelotl.analysis;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.ocelotl.model.EventCategory;
import org.ocelotl.query.RecordQuery;
import org.ocelotl.query.SequenceSearch;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.TraceStore;

/**
 * What a front end asks to save: a selection as given, or with its producers derived by a rule
 * over the trace's records in the window. {@link #resolve} turns it into the {@link Selection}
 * that is kept — a derived rule is evaluated once, now, and its producers stored with it.
 *
 * @param from        window start; NaN: the trace's start
 * @param to          window end; NaN: the trace's end
 * @param producers   the producers (or, with a rule, those the rule chooses among)
 * @param activeTypes non-empty: keep the producers having records of these types in the window
 * @param shareOf     non-null: keep the producers whose share of this type in the window is above {@code above}
 * @param sequence    non-empty: keep the producers where these types occur as a sequence, and narrow the
 *                    window to the occurrences
 * @param within      the sequence's longest occurrence; NaN: no bound
 */
public record SelectionRequest(String name, double from, double to, List<String> producers, List<String> types,
    String note, List<String> activeTypes, String shareOf, double above, List<String> sequence, double within) {

  public SelectionRequest {
    producers = List.copyOf(producers);
    types = List.copyOf(types);
    activeTypes = List.copyOf(activeTypes);
    sequence = List.copyOf(sequence);
  }

  /** @throws IllegalArgumentException naming what is wrong (window, an unknown name, a rule that keeps nobody) */
  public Selection resolve(TraceStore store) {
    StoreMetadata m = store.metadata();
    double start = Double.isNaN(from) ? m.start() : from;
    double end = Double.isNaN(to) ? m.windowEnd() : to;
    Selection.checkName(name);
    if ((activeTypes.isEmpty() ? 0 : 1) + (shareOf == null ? 0 : 1) + (sequence.isEmpty() ? 0 : 1) > 1) {
      throw new IllegalArgumentException("give one rule: --active-types, --share-of or --sequence, not two");
    }
    if (sequence.isEmpty() && !Double.isNaN(within)) {
      throw new IllegalArgumentException("--within bounds a sequence's occurrences; give --sequence too");
    }
    Selection.Rule rule = !activeTypes.isEmpty()
        ? new Selection.Rule(Selection.Rule.ACTIVE, activeTypes, Double.NaN, producers, Double.NaN)
        : shareOf != null ? new Selection.Rule(Selection.Rule.SHARE, List.of(shareOf), above, producers, Double.NaN)
        : !sequence.isEmpty() ? new Selection.Rule(Selection.Rule.SEQUENCE, sequence, Double.NaN, producers, within)
        : null;
    Selection given = new Selection(name, start, end, producers, types, note, rule);
    SelectionFile.check(m, given);
    if (rule == null) {
      return given;
    }
    if (rule.kind().equals(Selection.Rule.SEQUENCE)) {
      return occurrences(store, given, rule);
    }
    List<String> chosen = chosen(store, given, rule);
    if (chosen.isEmpty()) {
      throw new IllegalArgumentException("selection '" + name + "': no producer matches: " + rule.describe(given));
    }
    return new Selection(name, start, end, chosen, types, note, rule);
  }

  /** The paths of the producers the rule keeps, in the trace's producer order. */
  static List<String> chosen(TraceStore store, Selection s, Selection.Rule rule) {
    StoreMetadata m = store.metadata();
    Set<Integer> within = RecordQuery.producersNamed(m, rule.within());
    Set<Integer> ruleTypes = RecordQuery.typesNamed(m, rule.types());
    int n = m.producers().size();
    Set<Integer> kept = new TreeSet<>();
    if (rule.kind().equals(Selection.Rule.ACTIVE)) {
      RecordQuery.forEach(store, query(s, within, ruleTypes, EnumSet.allOf(EventCategory.class)),
          r -> kept.add(r.producer()));
      // A link is found from either end; the rule keeps the producers it was asked to choose among.
      if (within != null) {
        kept.retainAll(within);
      }
    } else {
      EventCategory category = m.types().get(ruleTypes.iterator().next()).category();
      if (category != EventCategory.STATE && category != EventCategory.EVENT) {
        throw new IllegalArgumentException("--share-of takes a state or event type, got the "
            + RecordQuery.kindName(category) + " '" + rule.types().get(0) + "'");
      }
      // A state's share is its time inside the window (nested states at their own type, as the
      // state-duration model counts them); an event's is its count.
      double[] part = new double[n];
      double[] total = new double[n];
      RecordQuery.forEach(store, query(s, within, null, EnumSet.of(category)), r -> {
        double amount = category == EventCategory.STATE ? Math.min(r.end(), s.to()) - Math.max(r.start(), s.from()) : 1;
        total[r.producer()] += amount;
        if (ruleTypes.contains(r.type())) {
          part[r.producer()] += amount;
        }
      });
      for (int p = 0; p < n; p++) {
        if (total[p] > 0 && part[p] / total[p] > rule.above()) {
          kept.add(p);
        }
      }
    }
    // The root cannot be named in a filter (it is every producer).
    return kept.stream().filter(p -> m.producers().get(p).parent() >= 0).map(m::path).toList();
  }

  /**
   * The selection of a sequence's occurrences: the producers where it occurs, and the window from
   * the earliest occurrence's start to the latest one's end, inside the window given (a little
   * past that end when a step ending there is instant, so that the window holds it).
   */
  private static Selection occurrences(TraceStore store, Selection s, Selection.Rule rule) {
    StoreMetadata m = store.metadata();
    List<Set<Integer>> steps = SequenceTable.stepIds(m, rule.types());
    RecordQuery.Selection stream = query(s, RecordQuery.producersNamed(m, rule.within()),
        RecordQuery.typesNamed(m, s.types()), SequenceTable.kinds(m, steps));
    SequenceSearch.Result found = SequenceSearch.find(store, new SequenceSearch.Search(stream, steps,
        Double.isNaN(rule.longest()) ? Double.POSITIVE_INFINITY : rule.longest()));
    if (found.total() == 0) {
      throw new IllegalArgumentException("selection '" + s.name() + "': the sequence " + String.join(",", rule.types())
          + " does not occur" + (Double.isNaN(rule.longest()) ? "" : " within " + rule.longest()) + " in [" + s.from()
          + ", " + s.to() + ")");
    }
    double from = Math.max(s.from(), found.first());
    double to = Math.min(s.to(), found.lastIsInstant() || found.last() <= from ? Math.nextUp(found.last())
        : found.last());
    List<String> chosen = new java.util.ArrayList<>();
    for (int p = 0; p < found.perProducer().length; p++) {
      if (found.perProducer()[p] > 0 && m.producers().get(p).parent() >= 0) { // the root cannot be named
        chosen.add(m.path(p));
      }
    }
    return new Selection(s.name(), from, to, chosen, s.types(), s.note(), rule);
  }

  private static RecordQuery.Selection query(Selection s, Set<Integer> producers, Set<Integer> types,
      Set<EventCategory> kinds) {
    return new RecordQuery.Selection(s.from(), s.to(), producers, types, kinds, null, Double.NEGATIVE_INFINITY,
        Double.POSITIVE_INFINITY, RecordQuery.Column.START, false, 0, 0);
  }
}
