package org.ocelotl.server;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The query parameters of a request, read with typed getters whose refusals are 400 errors
 * naming the parameter, what was expected and what was found.
 */
final class Params {
  private final Map<String, List<String>> values;

  private Params(Map<String, List<String>> values) {
    this.values = values;
  }

  static Params parse(String rawQuery) {
    Map<String, List<String>> values = new LinkedHashMap<>();
    if (rawQuery != null && !rawQuery.isEmpty()) {
      for (String pair : rawQuery.split("&")) {
        if (pair.isEmpty()) {
          continue;
        }
        String[] kv = pair.split("=", 2);
        String key = decode(kv[0]);
        values.computeIfAbsent(key, k -> new ArrayList<>()).add(kv.length == 2 ? decode(kv[1]) : "");
      }
    }
    return new Params(values);
  }

  private static String decode(String s) {
    try {
      return URLDecoder.decode(s, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw HttpError.badRequest("malformed percent-encoding in the query: " + HttpError.quote(s));
    }
  }

  /** Refuses parameters this endpoint does not know (a typo would otherwise be silently ignored). */
  Params only(Set<String> known) {
    for (String key : values.keySet()) {
      if (!known.contains(key) && !key.equals("token")) {
        throw HttpError.badRequest("unknown parameter '" + key + "'; this endpoint takes " + String.join(", ", known.stream().sorted().toList()));
      }
    }
    return this;
  }

  String string(String name) {
    String value = optional(name);
    if (value == null || value.isEmpty()) {
      throw HttpError.badRequest("missing parameter '" + name + "'");
    }
    return value;
  }

  String optional(String name) {
    List<String> list = values.get(name);
    if (list == null) {
      return null;
    }
    if (list.size() > 1) {
      throw HttpError.badRequest("parameter '" + name + "' given " + list.size() + " times; give it once");
    }
    return list.get(0);
  }

  String string(String name, String fallback) {
    String value = optional(name);
    return value == null || value.isEmpty() ? fallback : value;
  }

  /** One of the allowed words (case-insensitive), returned in lower case. */
  String choice(String name, String fallback, List<String> allowed) {
    String value = string(name, fallback).toLowerCase(Locale.ROOT);
    if (!allowed.contains(value)) {
      throw HttpError.badRequest("parameter '" + name + "': expected one of " + String.join(", ", allowed) + ", found '" + value + "'");
    }
    return value;
  }

  int integer(String name, int fallback, int min, int max) {
    String value = optional(name);
    if (value == null || value.isEmpty()) {
      return fallback;
    }
    int n;
    try {
      n = Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      throw HttpError.badRequest("parameter '" + name + "': expected an integer, found '" + value + "'");
    }
    if (n < min || n > max) {
      throw HttpError.badRequest("parameter '" + name + "': expected " + min + " to " + max + ", found " + n);
    }
    return n;
  }

  /** A finite number, or NaN when absent. */
  double number(String name) {
    String value = optional(name);
    if (value == null || value.isEmpty()) {
      return Double.NaN;
    }
    double x;
    try {
      x = Double.parseDouble(value.trim());
    } catch (NumberFormatException e) {
      throw HttpError.badRequest("parameter '" + name + "': expected a number, found '" + value + "'");
    }
    if (!Double.isFinite(x)) {
      throw HttpError.badRequest("parameter '" + name + "': expected a finite number, found '" + value + "'");
    }
    return x;
  }

  /** A list given as one parameter whose items are separated by '|' (names may hold commas). */
  List<String> list(String name) {
    String value = optional(name);
    if (value == null || value.isEmpty()) {
      return List.of();
    }
    List<String> items = new ArrayList<>();
    for (String item : value.split("\\|")) {
      if (!item.isEmpty()) {
        items.add(item);
      }
    }
    return List.copyOf(items);
  }
}
