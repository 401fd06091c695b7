package org.ocelotl.analysis;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.ocelotl.model.Utilization;
import org.ocelotl.store.StoreMetadata;

/**
 * Which variable is a topology graph node's size and which its fill, per node kind (the trace's
 * container types: HOST, LINK…), as the analyst chose them (decision 050, as VIVA's mapping was):
 * from {@code --size}/{@code --fill} or the URL's {@code size}/{@code fill}, over a mapping file's
 * lines ({@code --mapping}). A kind left out keeps the default: its capacity (speed, power,
 * bandwidth) and that capacity's use.
 *
 * @param size per kind, the variable of its size
 * @param fill per kind, the variable of its fill
 */
public record NodeMapping(Map<String, String> size, Map<String, String> fill) {
  public static final NodeMapping DEFAULT = new NodeMapping(Map.of(), Map.of());

  public NodeMapping {
    size = Map.copyOf(size);
    fill = Map.copyOf(fill);
  }

  public boolean isDefault() {
    return size.isEmpty() && fill.isEmpty();
  }

  /** The variables the mapping names, for the model to hold them. */
  List<String> variables() {
    java.util.Set<String> names = new java.util.TreeSet<>(size.values());
    names.addAll(fill.values());
    return List.copyOf(names);
  }

  /**
   * Whether a node of this kind is filled by its size's own use (the capacity's use, or the size's
   * variable itself): the fill is then use ÷ size, and more than 1 is over capacity. Another
   * variable has another unit, and fills as its share of the largest of the kind.
   */
  boolean fillIsUseOfSize(String kind) {
    String s = size.get(kind);
    String f = fill.get(kind);
    if (f == null || f.equals(s)) {
      return true;
    }
    int use = Utilization.USES.indexOf(f);
    return use >= 0 && (s == null || Utilization.CAPACITIES.get(use).equals(s));
  }

  /**
   * The mapping a request asks for: the file's lines, then {@code --size} and {@code --fill}
   * over them.
   *
   * @throws IllegalArgumentException for a malformed entry, a kind or a variable the trace does not
   *     have (the message names the file and line, or the parameter, and what was expected)
   */
  static NodeMapping of(RequestValues values, StoreMetadata metadata) {
    Names names = Names.of(metadata);
    Map<String, String> size = new TreeMap<>();
    Map<String, String> fill = new TreeMap<>();
    if (values.takes(RequestSpec.MAPPING) && values.given(RequestSpec.MAPPING)) {
      readFile(Path.of(values.text(RequestSpec.MAPPING)), names, size, fill);
    }
    for (Param p : List.of(RequestSpec.SIZE, RequestSpec.FILL)) {
      if (!values.takes(p)) {
        continue;
      }
      for (String item : values.list(p)) {
        int eq = item.indexOf('=');
        if (eq <= 0 || eq == item.length() - 1) {
          throw values.refusal(p, "expected KIND=VARIABLE, found '" + item + "'");
        }
        String problem = names.problem(item.substring(0, eq).trim(), item.substring(eq + 1).trim());
        if (problem != null) {
          throw values.refusal(p, problem);
        }
        (p == RequestSpec.SIZE ? size : fill).put(names.kind(item.substring(0, eq).trim()), item.substring(eq + 1).trim());
      }
    }
    return new NodeMapping(size, fill);
  }

  /** A mapping file: {@code size.KIND=VARIABLE} and {@code fill.KIND=VARIABLE} lines, '#' comments, blank lines. */
  private static void readFile(Path file, Names names, Map<String, String> size, Map<String, String> fill) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file);
    } catch (IOException | java.io.UncheckedIOException e) {
      throw new IllegalArgumentException(file + ": cannot read the mapping file ("
          + (e instanceof java.nio.file.NoSuchFileException ? "no such file" : e.getClass().getSimpleName()) + ")");
    }
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String where = file + ", line " + (i + 1) + ": ";
      java.util.regex.Matcher m = LINE.matcher(line);
      if (!m.matches()) {
        throw new IllegalArgumentException(where + "expected size.KIND=VARIABLE or fill.KIND=VARIABLE, found '"
            + line + "'");
      }
      String problem = names.problem(m.group(2).strip(), m.group(3).strip());
      if (problem != null) {
        throw new IllegalArgumentException(where + problem);
      }
      (m.group(1).equals("size") ? size : fill).put(names.kind(m.group(2).strip()), m.group(3).strip());
    }
  }

  private static final java.util.regex.Pattern LINE = java.util.regex.Pattern.compile("(size|fill)\\.([^=]+)=(.+)");

  /** The trace's node kinds (any case) and variables, for checking and refusing with what exists. */
  private record Names(Map<String, String> kinds, java.util.Set<String> variables) {
    static Names of(StoreMetadata m) {
      Map<String, String> kinds = new TreeMap<>();
      for (StoreMetadata.Producer p : m.producers()) {
        kinds.put(p.kind().toLowerCase(java.util.Locale.ROOT), p.kind());
      }
      return new Names(kinds, new java.util.TreeSet<>(m.recordedVariables()));
    }

    String kind(String written) {
      return kinds.get(written.toLowerCase(java.util.Locale.ROOT));
    }

    /** What is wrong with a kind and a variable, or null. */
    String problem(String kind, String variable) {
      if (kind(kind) == null) {
        return "no node kind '" + kind + "' in the trace; its kinds: " + String.join(", ", kinds.values());
      }
      if (!variables.contains(variable)) {
        return "no variable '" + variable + "' in the trace; its variables: " + String.join(", ", variables);
      }
      return null;
    }
  }
}
