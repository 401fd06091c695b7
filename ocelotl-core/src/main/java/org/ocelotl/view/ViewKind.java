package org.ocelotl.view;

import java.util.Locale;

/** The overviews of SPEC.md §6; time is on the x axis in all of them. */
public enum ViewKind {
  /** One coloured block per temporal part. */
  TEMPORAL_PARTITION(false, "partition"),
  /** Per temporal part, one layer per event type with its mean amplitude per slice. */
  TEMPORAL_STACKED(false, "stacked"),
  /** Per temporal part, the dominant type's colour, its share as opacity. */
  TEMPORAL_MODE(false, "mode"),
  /** One rectangle per (node, interval) part, coloured by part. */
  SPATIOTEMPORAL_PARTITION(true, "partition"),
  /** One rectangle per (node, interval) part in its dominant type's colour, share as opacity. */
  SPATIOTEMPORAL_MODE(true, "mode");

  private final boolean spatiotemporal;
  private final String view;

  ViewKind(boolean spatiotemporal, String view) {
    this.spatiotemporal = spatiotemporal;
    this.view = view;
  }

  public boolean spatiotemporal() {
    return spatiotemporal;
  }

  /** "temporal" or "spatiotemporal". */
  public String aggregation() {
    return spatiotemporal ? "spatiotemporal" : "temporal";
  }

  /** "partition", "stacked" or "mode". */
  public String view() {
    return view;
  }

  /**
   * The view for an aggregation name and a view name, as a command line or a URL spells them.
   *
   * @throws IllegalArgumentException naming what exists when the pair is unknown
   */
  public static ViewKind of(String aggregation, String view) {
    String a = aggregation.toLowerCase(Locale.ROOT);
    String v = view.toLowerCase(Locale.ROOT);
    for (ViewKind kind : values()) {
      if (kind.aggregation().equals(a) && kind.view.equals(v)) {
        return kind;
      }
    }
    throw new IllegalArgumentException("no view '" + view + "' for aggregation '" + aggregation
        + "'; temporal has partition, stacked, mode; spatiotemporal has partition, mode");
  }
}
