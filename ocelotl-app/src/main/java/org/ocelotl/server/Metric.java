package org.ocelotl.server;

import java.util.Arrays;
import java.util.List;
import org.ocelotl.model.EventCategory;

/** The metrics of SPEC.md §3, by the name the URL and the API use. */
public enum Metric {
  DURATION("duration", "state total duration", EventCategory.STATE),
  AVERAGE("average", "state average duration", EventCategory.STATE),
  EVENTS("events", "event occurrences", EventCategory.EVENT),
  VARIABLE("variable", "variable mean", EventCategory.VARIABLE),
  LINKS("links", "link count", EventCategory.LINK);

  private final String id;
  private final String label;
  private final EventCategory category;

  Metric(String id, String label, EventCategory category) {
    this.id = id;
    this.label = label;
    this.category = category;
  }

  public String id() {
    return id;
  }

  public String label() {
    return label;
  }

  public EventCategory category() {
    return category;
  }

  public static List<String> ids() {
    return Arrays.stream(values()).map(Metric::id).toList();
  }

  public static Metric of(String id) {
    for (Metric m : values()) {
      if (m.id.equals(id)) {
        return m;
      }
    }
    throw HttpError.badRequest("parameter 'metric': expected one of " + String.join(", ", ids()) + ", found '" + id + "'");
  }
}
