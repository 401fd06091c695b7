package org.ocelotl.split;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The warnings of a split import's parts, worded as one sequential read and one store writer word them. */
public final class SplitWarnings {
  private static final Pattern FIRST_LINE = Pattern.compile("\\(first at line (\\d+)\\)");
  private static final Pattern COUNT = Pattern.compile("^(ignored )?(\\d+) (links?|events|variable changes) ");

  private SplitWarnings() {}

  /**
   * The partitions' warnings as the sequential read words them: each partition words what it saw
   * ("first at line L", "ignored N events…", "N links started but never ended…", and its store's
   * "N variable changes came before…"), so warnings that differ only by those numbers are one, its
   * count the sum and its line the earliest.
   */
  public static List<String> merged(Collection<String> warnings) {
    Map<String, long[]> byKind = new LinkedHashMap<>();
    for (String warning : warnings) {
      Matcher line = FIRST_LINE.matcher(warning);
      Matcher count = COUNT.matcher(warning);
      boolean counted = count.find();
      String kind = FIRST_LINE.matcher(counted ? count.replaceFirst("$1# " + (count.group(3).startsWith("link") ? "links" : count.group(3)) + " ")
          : warning).replaceAll("(first at line #)");
      long[] numbers = byKind.computeIfAbsent(kind, k -> new long[] {0, Long.MAX_VALUE});
      numbers[0] += counted ? Long.parseLong(count.group(2)) : 0;
      if (line.find()) {
        numbers[1] = Math.min(numbers[1], Long.parseLong(line.group(1)));
      }
    }
    List<String> merged = new ArrayList<>();
    byKind.forEach((kind, numbers) -> {
      String text = kind.replace("(first at line #)", "(first at line " + numbers[1] + ")");
      if (text.contains("# ")) {
        text = text.replaceFirst("# ", numbers[0] + " ").replaceFirst("^1 links ", "1 link ");
      }
      merged.add(text);
    });
    return merged;
  }

}
