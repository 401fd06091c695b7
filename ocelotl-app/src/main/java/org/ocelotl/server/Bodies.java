package org.ocelotl.server;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.ocelotl.analysis.JsonForm;
import org.ocelotl.analysis.Selection;
import org.ocelotl.analysis.SelectionRequest;

/**
 * The JSON bodies the API reads — an import's path, a selection to save, a new name — each refused
 * with 400 naming the field and what was expected.
 */
final class Bodies {
  private Bodies() {}

  /** {@code {"path": "/absolute/path"}}: the file to import. */
  static String importPath(String body) {
    JsonNode parsed;
    try {
      parsed = JsonForm.parse(body == null || body.isBlank() ? "null" : body);
    } catch (IllegalArgumentException e) {
      throw HttpError.badRequest("the body must be JSON {\"path\": \"/absolute/path\"}: " + e.getMessage());
    }
    JsonNode path = parsed == null ? null : parsed.get("path");
    if (path == null || !path.isTextual() || path.asText().isBlank()) {
      throw HttpError.badRequest("the body must be JSON {\"path\": \"/absolute/path/to/trace\"}");
    }
    return path.asText().trim();
  }

  /** {@code {"name": NEW}}: a selection's new name. */
  static String newName(String body) {
    return text(object(body, "a JSON rename", "{\"name\": NEW}"), "name");
  }

  /**
   * A selection to save: name, from, to, producers, types, note, and optionally a rule {kind:
   * active|share|sequence, types, above (share), longest (sequence; null or absent: no bound)}.
   */
  static SelectionRequest selection(String body) {
    JsonNode json = object(body, "a JSON selection",
        "{\"name\", \"from\", \"to\", \"producers\", \"types\", \"note\", \"rule\"}");
    JsonNode rule = json.get("rule");
    boolean hasRule = rule != null && !rule.isNull();
    String kind = hasRule ? text(rule, "kind") : null;
    if (hasRule && !List.of(Selection.Rule.ACTIVE, Selection.Rule.SHARE, Selection.Rule.SEQUENCE).contains(kind)) {
      throw HttpError.badRequest("rule.kind: expected active, share or sequence, found '" + HttpError.quote(kind)
          + "'");
    }
    List<String> ruleTypes = hasRule ? strings(rule, "types") : List.of();
    boolean share = hasRule && kind.equals(Selection.Rule.SHARE);
    if (share && ruleTypes.size() != 1) {
      throw HttpError.badRequest("rule.types: a share rule takes one type");
    }
    boolean sequence = hasRule && kind.equals(Selection.Rule.SEQUENCE);
    return new SelectionRequest(text(json, "name"), number(json, "from"), number(json, "to"), strings(json, "producers"),
        strings(json, "types"), json.path("note").asText(""), share || sequence ? List.of() : ruleTypes,
        share ? ruleTypes.get(0) : null, share ? number(rule, "above") : Double.NaN,
        sequence ? ruleTypes : List.of(), sequence ? number(rule, "longest") : Double.NaN);
  }

  /** The request's body as a JSON object; 400 naming what was {@code expected} otherwise. */
  private static JsonNode object(String body, String what, String expected) {
    JsonNode json;
    try {
      json = JsonForm.parse(body == null || body.isBlank() ? "null" : body);
    } catch (IllegalArgumentException e) {
      throw HttpError.badRequest("the body must be " + what + ": " + e.getMessage());
    }
    if (json == null || !json.isObject()) {
      throw HttpError.badRequest("the body must be a JSON object " + expected);
    }
    return json;
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.get(field);
    if (value == null || !value.isTextual()) {
      throw HttpError.badRequest("field '" + field + "': expected a string");
    }
    return value.asText();
  }

  /** A number, or NaN when absent or null. */
  private static double number(JsonNode node, String field) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return Double.NaN;
    }
    if (!value.isNumber()) {
      throw HttpError.badRequest("field '" + field + "': expected a number");
    }
    return value.asDouble();
  }

  private static List<String> strings(JsonNode node, String field) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return List.of();
    }
    List<String> list = new ArrayList<>();
    if (value.isArray()) {
      value.forEach(item -> list.add(item.isTextual() ? item.asText() : null));
    }
    if (!value.isArray() || list.contains(null)) {
      throw HttpError.badRequest("field '" + field + "': expected a list of strings");
    }
    return list;
  }
}
