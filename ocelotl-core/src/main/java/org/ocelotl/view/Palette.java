package org.ocelotl.view;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Colours of event types and of parts.
 *
 * <p>A type's colour is the trace's colour when the trace defines one; otherwise a slot of
 * {@link #TYPE_COLOURS} chosen from a hash of the type's name, so the same type keeps its colour
 * across views and runs. When that hue is taken the next free one is used (so a type's colour can
 * depend on the types listed before it, never on those after); the twelve strong hues are used
 * before their lighter shades, and a light shade never follows its own strong hue (layers and
 * legend rows of neighbouring types touch).
 */
public final class Palette {
  /** Twelve distinct hues, then a lighter shade of each; slot i and i + 12 share a hue. */
  static final List<String> TYPE_COLOURS = List.of(
      "#2f6db5", "#e3872d", "#3c9a4a", "#cc3b3b", "#8257b8", "#2aa7b8",
      "#c9a227", "#d9629f", "#7b5a3a", "#7f9c2a", "#4a4f9e", "#5f7f8f",
      "#93b7e0", "#f3c08e", "#9fd19f", "#ef9a9a", "#c3a9e3", "#93d8e0",
      "#ecd98a", "#f0b3d3", "#c4a584", "#c8d98a", "#a3a8df", "#b5c6cf");
  private static final int HUES = 12;

  /** Muted colours for parts in the partition views; none is grey, which marks visual aggregates. */
  static final List<String> PART_COLOURS = List.of(
      "#8db3d9", "#f2b880", "#9ccf9c", "#e89f9f", "#bca6dc", "#88cfd6", "#e3d07f", "#e6a8c8");

  /** Fill of a visual aggregate in a partition view: it is several parts, so no part colour. */
  public static final String VISUAL_AGGREGATE = "#a8a8a8";
  /** Fill of the merged layer of a stacked bar. */
  public static final String MERGED_LAYER = "#cfcfcf";
  /** Fill of an aggregate with no value at all. */
  public static final String EMPTY = "#ffffff";

  private Palette() {}

  /**
   * One colour "#rrggbb" per type.
   *
   * @param traceColours null, or one entry per type: null or "r g b" with components in [0, 1]
   * @throws IllegalArgumentException for a malformed trace colour
   */
  public static List<String> typeColours(List<String> types, List<String> traceColours) {
    if (traceColours != null && traceColours.size() != types.size()) {
      throw new IllegalArgumentException("expected one trace colour (or null) per type: "
          + types.size() + " types, " + traceColours.size() + " colours");
    }
    boolean[] used = new boolean[TYPE_COLOURS.size()];
    int usedCount = 0;
    int previousSlot = -1;
    List<String> result = new ArrayList<>(types.size());
    java.util.Set<String> taken = new java.util.HashSet<>();
    for (int u = 0; u < types.size(); u++) {
      String given = traceColours == null ? null : traceColours.get(u);
      String parsed = given == null ? null : parseTraceColour(given, types.get(u));
      // A trace colour is kept unless it would hide the type: one already given to another
      // type (SimGrid paints several variables white), too pale to see on white, or a mid grey
      // (SimGrid's speed_used), which the views keep for visual aggregates.
      if (parsed != null && !tooPale(parsed) && !grey(parsed) && taken.add(parsed)) {
        result.add(parsed);
        previousSlot = -1;
        continue;
      }
      if (usedCount == used.length) {
        // More types than slots: fall back to a hue from the hash; rare, and beyond 24 types
        // no palette keeps every pair apart anyway.
        result.add(hashHue(types.get(u)));
        previousSlot = -1;
        continue;
      }
      int slot = freeSlot(Math.floorMod(types.get(u).hashCode(), HUES), used, previousSlot);
      used[slot] = true;
      usedCount++;
      previousSlot = slot;
      result.add(TYPE_COLOURS.get(slot));
    }
    return result;
  }

  /** Relative luminance above 0.85: nearly invisible on the white background. */
  /** An achromatic colour between dark and pale: read as "aggregated", not as a type. */
  static boolean grey(String hex) {
    int rgb = Integer.parseInt(hex.substring(1), 16);
    int r = rgb >> 16 & 0xff;
    return r == (rgb >> 8 & 0xff) && r == (rgb & 0xff) && r >= 0x33 && r <= 0xd9;
  }

  static boolean tooPale(String hex) {
    int rgb = Integer.parseInt(hex.substring(1), 16);
    double luminance = (0.2126 * (rgb >> 16 & 0xff) + 0.7152 * (rgb >> 8 & 0xff) + 0.0722 * (rgb & 0xff)) / 255;
    return luminance > 0.85;
  }

  // Strong hues first, from the name's hash; the lighter shades only once every strong hue is
  // taken, and never the shade of the previous type's hue.
  private static int freeSlot(int hash, boolean[] used, int previousSlot) {
    for (int shade = 0; shade < 2; shade++) {
      for (int k = 0; k < HUES; k++) {
        int slot = shade * HUES + (hash + k) % HUES;
        if (!used[slot] && (previousSlot < 0 || slot % HUES != previousSlot % HUES)) {
          return slot;
        }
      }
    }
    for (int slot = 0; slot < used.length; slot++) {
      if (!used[slot]) {
        return slot; // only the previous type's shade is left
      }
    }
    throw new AssertionError("called with a free slot");
  }

  // A mid-saturation colour of the name's hue (HSV with s = 0.55, v = 0.8), computed here so the
  // core does not need java.desktop.
  private static String hashHue(String name) {
    double h = Math.floorMod(name.hashCode(), 360) / 60.0;
    double v = 0.8;
    double s = 0.55;
    double c = v * s;
    double x = c * (1 - Math.abs(h % 2 - 1));
    double[] rgb = switch ((int) h) {
      case 0 -> new double[] {c, x, 0};
      case 1 -> new double[] {x, c, 0};
      case 2 -> new double[] {0, c, x};
      case 3 -> new double[] {0, x, c};
      case 4 -> new double[] {x, 0, c};
      default -> new double[] {c, 0, x};
    };
    int packed = 0;
    for (double component : rgb) {
      packed = packed << 8 | (int) Math.round((component + v - c) * 255);
    }
    return hex(packed);
  }

  /** "r g b" in [0, 1] (Pajé's colour field) to "#rrggbb". */
  static String parseTraceColour(String rgb, String type) {
    String[] fields = rgb.trim().split("[\\s,]+");
    if (fields.length != 3) {
      throw new IllegalArgumentException("colour of type " + type + ": expected \"r g b\" in [0, 1], found \"" + rgb + "\"");
    }
    int packed = 0;
    for (String field : fields) {
      double c;
      try {
        c = Double.parseDouble(field);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("colour of type " + type + ": expected a number in [0, 1], found \"" + field + "\"");
      }
      if (!(c >= 0 && c <= 1)) {
        throw new IllegalArgumentException("colour of type " + type + ": expected a number in [0, 1], found " + field);
      }
      packed = packed << 8 | (int) Math.round(c * 255);
    }
    return hex(packed);
  }

  private static String hex(int rgb) {
    return String.format(Locale.ROOT, "#%06x", rgb & 0xffffff);
  }
}
