package org.ocelotl.scan;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.ocelotl.model.BuiltInMetric;
import org.ocelotl.model.Metric;

/**
 * The metrics of this run: Ocelotl's own, then those of the plug-ins on the class path
 * ({@link PluginMetric}, found once by {@link ServiceLoader}), by the name every front end uses.
 */
public final class Metrics {
  /** The most sums a plug-in's cell may hold: a bound on what a model costs beside its values. */
  static final int MAX_SUMS = 8;
  /** A name that needs no quoting in a URL, a file name (the model cache's) or a shell. */
  private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,39}");

  private Metrics() {}

  /** Loaded on first use; a plug-in refused is told by every use, in one line. */
  private static final class Loaded {
    static final List<Metric> ALL;
    static final IllegalArgumentException REFUSED;

    static {
      List<Metric> all = null;
      IllegalArgumentException refused = null;
      try {
        all = withPlugins(ServiceLoader.load(PluginMetric.class));
      } catch (IllegalArgumentException e) {
        refused = e;
      }
      ALL = all;
      REFUSED = refused;
    }
  }

  /**
   * Ocelotl's metrics, then the plug-ins' in the order the class path gives them.
   *
   * @throws IllegalArgumentException a plug-in that cannot be loaded, or that is refused
   */
  public static List<Metric> all() {
    if (Loaded.REFUSED != null) {
      throw new IllegalArgumentException(Loaded.REFUSED.getMessage());
    }
    return Loaded.ALL;
  }

  /**
   * The metric called {@code name}.
   *
   * @throws IllegalArgumentException naming the known metrics
   */
  public static Metric parse(String name) {
    for (Metric metric : all()) {
      if (metric.cliName().equals(name)) {
        return metric;
      }
    }
    throw new IllegalArgumentException("unknown metric '" + name + "'; expected one of " + names());
  }

  /** "state-duration, state-average, …" for messages and help texts. */
  public static String names() {
    return all().stream().map(Metric::cliName).collect(Collectors.joining(", "));
  }

  static List<Metric> withPlugins(Iterable<PluginMetric> plugins) {
    List<Metric> all = new ArrayList<>(List.of(BuiltInMetric.values()));
    try {
      for (PluginMetric plugin : plugins) {
        check(plugin, all);
        all.add(plugin);
      }
    } catch (ServiceConfigurationError e) {
      // A jar that names a class it lacks, or one without a public no-argument constructor.
      throw new IllegalArgumentException("a metric plug-in on the class path cannot be loaded: " + e.getMessage());
    }
    return List.copyOf(all);
  }

  private static void check(PluginMetric plugin, List<Metric> known) {
    String name = plugin.cliName();
    String what = "metric plug-in " + plugin.getClass().getName();
    if (name == null || !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(what + " names its metric '" + name
          + "': a name is 1 to 40 lower-case letters, digits and '-', starting with a letter or digit");
    }
    if (plugin.label() == null || plugin.label().isBlank() || plugin.category() == null) {
      throw new IllegalArgumentException(what + " gives its metric " + name + " no label or no category");
    }
    if (plugin.version() < 1) {
      throw new IllegalArgumentException(what + " gives its metric " + name + " the version " + plugin.version()
          + "; versions start at 1");
    }
    if (plugin.sums() < 1 || plugin.sums() > MAX_SUMS) {
      throw new IllegalArgumentException(what + " gives its metric " + name + " " + plugin.sums()
          + " sums a cell; a metric has 1 to " + MAX_SUMS);
    }
    for (Metric metric : known) {
      if (metric.cliName().equals(name)) {
        throw new IllegalArgumentException(metric instanceof BuiltInMetric
            ? what + " names its metric '" + name + "', which is one of Ocelotl's own; rename it"
            : "two metric plug-ins on the class path name their metric '" + name + "' (" + plugin.getClass().getName()
                + " is one); remove one");
      }
    }
  }
}
