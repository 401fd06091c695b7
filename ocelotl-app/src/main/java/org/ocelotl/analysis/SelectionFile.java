package org.ocelotl.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.ocelotl.io.AtomicFile;
import org.ocelotl.query.RecordQuery;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.TraceStore;
import org.ocelotl.trace.Utf8;
import org.ocelotl.workspace.Workspace;

/**
 * The saved selections of one trace (docs/selections.md): a JSON file
 * {@code WORKSPACE/selections/STORE.json}, beside the trace stores rather than inside one, so a
 * re-import (which replaces the store directory) keeps it. Every change reads the file, changes
 * it and writes it whole under a temporary name renamed into place, holding a lock so two
 * processes (a server and a command) never lose each other's change.
 *
 * <p>A file that does not parse is never silently emptied: it is moved aside (its name gets
 * {@code .corrupt-DATE}) and the command fails, naming both files.
 */
public final class SelectionFile {
  static final String FORMAT = "ocelotl-selections";
  static final int VERSION = 1;
  private static final String DIRECTORY = "selections";

  private final TraceStore store;
  private final Path file;

  private SelectionFile(TraceStore store, Path file) {
    this.store = store;
    this.file = file;
  }

  /** The selections of {@code store} in {@code workspace}. */
  public static SelectionFile of(Workspace workspace, TraceStore store) {
    return new SelectionFile(store, workspace.directory().resolve(DIRECTORY).resolve(TraceSummary.id(store) + ".json"));
  }

  public Path file() {
    return file;
  }

  public TraceStore store() {
    return store;
  }

  /** Every selection, by name. */
  public List<Selection> list() throws IOException {
    return read();
  }

  /** @throws IllegalArgumentException naming the unknown selection and the known ones */
  public Selection get(String name) throws IOException {
    List<Selection> all = read();
    return find(all, name).orElseThrow(() -> new IllegalArgumentException("no selection '" + name + "' for "
        + store.metadata().name() + (all.isEmpty() ? "; 'ocelotl selection save' makes one"
        : "; it has " + String.join(", ", all.stream().map(Selection::name).toList()))));
  }

  /** Adds a selection. @throws IllegalArgumentException when the name is taken or a name does not resolve */
  public void add(Selection selection) throws IOException {
    check(store.metadata(), selection);
    update(all -> {
      if (find(all, selection.name()).isPresent()) {
        throw duplicate(selection.name());
      }
      all.add(selection);
    });
  }

  public void rename(String oldName, String newName) throws IOException {
    Selection.checkName(newName);
    update(all -> {
      Selection old = take(all, oldName);
      if (find(all, newName).isPresent()) {
        throw duplicate(newName);
      }
      all.add(old.renamed(newName));
    });
  }

  public void delete(String name) throws IOException {
    update(all -> take(all, name));
  }

  /**
   * Adds every selection of an exported file, or none: each must resolve on this trace and no
   * name may be taken already.
   *
   * @return the selections added
   */
  public List<Selection> importFrom(Path exported) throws IOException {
    List<Selection> incoming = parse(exported, Files.readAllBytes(exported), store.metadata());
    for (Selection s : incoming) {
      try {
        check(store.metadata(), s);
      } catch (IllegalArgumentException e) {
        // The user reads which file holds the name the trace lacks (found by fuzzing: it did not say).
        throw new IllegalArgumentException(exported + ": " + e.getMessage());
      }
    }
    update(all -> {
      List<String> taken = incoming.stream().map(Selection::name).filter(n -> find(all, n).isPresent()).toList();
      if (!taken.isEmpty()) {
        throw new IllegalArgumentException(exported + ": nothing imported: " + store.metadata().name()
            + " already has a selection named " + String.join(", ", taken) + " (rename or delete it first)");
      }
      all.addAll(incoming);
    });
    return incoming;
  }

  /** The file's bytes for these selections: what is kept, exported and imported. */
  public byte[] bytes(List<Selection> selections) {
    ObjectNode json = JsonForm.object();
    json.put("format", FORMAT);
    json.put("version", VERSION);
    StoreMetadata m = store.metadata();
    ObjectNode trace = json.putObject("trace");
    trace.put("name", m.name());
    trace.put("path", m.source().path());
    trace.put("size", m.source().size());
    trace.put("fingerprint", m.source().fingerprint());
    ArrayNode items = json.putArray("selections");
    for (Selection s : sorted(selections)) {
      items.add(json(s));
    }
    return JsonForm.pretty(json).getBytes(StandardCharsets.UTF_8);
  }

  /** One selection as the file holds it (and {@code selection show --json}, the API's list, write it). */
  public static ObjectNode json(Selection s) {
    ObjectNode item = JsonForm.object();
    item.put("name", s.name());
    item.put("from", s.from());
    item.put("to", s.to());
    s.producers().forEach(item.putArray("producers")::add);
    s.types().forEach(item.putArray("types")::add);
    item.put("note", s.note());
    if (s.rule() == null) {
      item.putNull("rule");
    } else {
      ObjectNode rule = item.putObject("rule");
      rule.put("kind", s.rule().kind());
      s.rule().types().forEach(rule.putArray("types")::add);
      if (s.rule().kind().equals(Selection.Rule.SHARE)) {
        rule.put("above", s.rule().above());
      }
      if (s.rule().kind().equals(Selection.Rule.SEQUENCE)) {
        if (Double.isNaN(s.rule().longest())) {
          rule.putNull("longest");
        } else {
          rule.put("longest", s.rule().longest());
        }
      }
      s.rule().within().forEach(rule.putArray("within")::add);
    }
    return item;
  }

  /** @throws IllegalArgumentException naming a producer or type of the selection this trace lacks */
  static void check(StoreMetadata m, Selection s) {
    try {
      RecordQuery.producersNamed(m, s.producers());
      RecordQuery.typesNamed(m, s.types());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("selection '" + s.name() + "': " + e.getMessage() + " in " + m.name());
    }
  }

  // ---- the file ---------------------------------------------------------------------------

  private interface Change {
    void apply(List<Selection> all) throws IOException;
  }

  private void update(Change change) throws IOException {
    Files.createDirectories(file.getParent());
    try (FileChannel lock = FileChannel.open(file.getParent().resolve(".lock"), StandardOpenOption.CREATE,
        StandardOpenOption.WRITE); FileLock held = lock.lock()) {
      List<Selection> all = new ArrayList<>(read());
      change.apply(all);
      byte[] bytes = bytes(all);
      AtomicFile.write(file, out -> out.write(bytes));
    }
  }

  private List<Selection> read() throws IOException {
    if (!Files.exists(file)) {
      return List.of();
    }
    byte[] bytes = Files.readAllBytes(file);
    try {
      return parse(file, bytes, store.metadata());
    } catch (IllegalArgumentException e) {
      Path aside = file.resolveSibling(file.getFileName() + ".corrupt-"
          + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS", Locale.ROOT)));
      Files.move(file, aside, StandardCopyOption.ATOMIC_MOVE);
      throw new IllegalArgumentException(e.getMessage() + "; the file was moved aside to " + aside
          + " (fix it, then 'ocelotl selection import' it)");
    }
  }

  /**
   * The selections of a file for a trace of metadata {@code m}, whose windows may be written as
   * times since the trace's start ("150ms", {@link TimeText}).
   *
   * @throws IllegalArgumentException naming the file and what is wrong in it
   */
  static List<Selection> parse(Path source, byte[] bytes, StoreMetadata m) {
    try {
      long notText = Utf8.invalidAt(bytes);
      if (notText >= 0) {
        throw new IllegalArgumentException("expected UTF-8 text, found a byte that is not at offset " + notText);
      }
      JsonNode json = JsonForm.parse(new String(bytes, StandardCharsets.UTF_8));
      if (json == null || !json.isObject() || !FORMAT.equals(json.path("format").asText(null))) {
        throw new IllegalArgumentException("expected a JSON object with \"format\": \"" + FORMAT + "\"");
      }
      if (json.path("version").asInt(-1) != VERSION) {
        throw new IllegalArgumentException("version: expected " + VERSION + ", found " + json.get("version"));
      }
      List<Selection> all = new ArrayList<>();
      JsonNode items = json.get("selections");
      if (items == null || !items.isArray()) {
        throw new IllegalArgumentException("selections: expected a list");
      }
      for (int i = 0; i < items.size(); i++) {
        Selection s = selection(items.get(i), "selections[" + i + "]", m);
        if (find(all, s.name()).isPresent()) {
          throw new IllegalArgumentException("selections[" + i + "]: the name '" + s.name() + "' is listed twice");
        }
        all.add(s);
      }
      return sorted(all);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(source + ": not a selections file: " + e.getMessage());
    }
  }

  private static Selection selection(JsonNode item, String where, StoreMetadata m) {
    if (!item.isObject()) {
      throw new IllegalArgumentException(where + ": expected an object");
    }
    try {
      JsonNode rule = item.get("rule");
      return new Selection(text(item, "name"), time(item, "from", m), time(item, "to", m), strings(item, "producers"),
          strings(item, "types"), item.path("note").asText(""),
          rule == null || rule.isNull() ? null : new Selection.Rule(text(rule, "kind"), strings(rule, "types"),
              rule.has("above") ? number(rule, "above") : Double.NaN, strings(rule, "within"),
              rule.hasNonNull("longest") ? number(rule, "longest") : Double.NaN));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(where + ": " + e.getMessage());
    }
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.get(field);
    if (value == null || !value.isTextual()) {
      throw new IllegalArgumentException(field + ": expected a string, found " + value);
    }
    return value.asText();
  }

  private static double number(JsonNode node, String field) {
    JsonNode value = node.get(field);
    if (value == null || !value.isNumber()) {
      throw new IllegalArgumentException(field + ": expected a number, found " + value);
    }
    return value.asDouble();
  }

  /** A window bound: a number in the trace's unit, or a text such as "150ms" (since the trace's start). */
  private static double time(JsonNode node, String field, StoreMetadata m) {
    JsonNode value = node.get(field);
    if (value != null && value.isTextual()) {
      try {
        return TimeText.parse(value.asText(), m.origin(), m.timeUnit());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(field + ": " + e.getMessage());
      }
    }
    return number(node, field);
  }

  private static List<String> strings(JsonNode node, String field) {
    JsonNode value = node.get(field);
    List<String> list = new ArrayList<>();
    if (value == null) {
      return list;
    }
    if (!value.isArray()) {
      throw new IllegalArgumentException(field + ": expected a list of strings, found " + value);
    }
    for (JsonNode item : value) {
      if (!item.isTextual()) {
        throw new IllegalArgumentException(field + ": expected a list of strings, found " + item);
      }
      list.add(item.asText());
    }
    return list;
  }

  private static List<Selection> sorted(List<Selection> all) {
    List<Selection> copy = new ArrayList<>(all);
    copy.sort(Comparator.comparing(Selection::name));
    return copy;
  }

  private static Optional<Selection> find(List<Selection> all, String name) {
    return all.stream().filter(s -> s.name().equals(name)).findFirst();
  }

  private Selection take(List<Selection> all, String name) {
    Selection found = find(all, name).orElseThrow(() -> new IllegalArgumentException("no selection '" + name
        + "' for " + store.metadata().name()));
    all.remove(found);
    return found;
  }

  private IllegalArgumentException duplicate(String name) {
    return new IllegalArgumentException("selection '" + name + "' already exists for " + store.metadata().name()
        + "; choose another name, or rename or delete it first");
  }
}
