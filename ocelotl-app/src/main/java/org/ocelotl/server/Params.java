package org.ocelotl.server;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.ocelotl.analysis.Param;
import org.ocelotl.analysis.RequestValues;

/**
 * The query parameters of a request: the text of a request's values ({@link RequestValues}, which
 * reads them by the request spec), and the few keys of the server's own protocol (trace, client,
 * seq, format), whose refusals are 400 errors naming the parameter, what was expected and what was
 * found. A spec parameter is read under any of its keys (an older one too), once.
 */
final class Params implements RequestValues.Source {
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
  Params only(List<Param> params, Set<String> own) {
    Set<String> known = new java.util.TreeSet<>(own);
    params.forEach(p -> known.addAll(p.keys()));
    return only(known);
  }

  /** The values of the request spec's parameters {@code params}. */
  RequestValues values(List<Param> params) {
    return new RequestValues(this, params);
  }

  @Override
  public String value(Param p) {
    String given = givenKey(p);
    return given == null ? null : optional(given);
  }

  @Override
  public List<String> items(Param p) {
    String given = givenKey(p);
    return given == null ? List.of() : list(given);
  }

  @Override
  public String spelling(Param p) {
    String given = givenKey(p);
    return "parameter '" + (given != null ? given : p.key()) + "'";
  }

  /** The key under which {@code p} was given, or null; refused when given under two. */
  private String givenKey(Param p) {
    String found = null;
    for (String key : p.keys()) {
      if (values.containsKey(key)) {
        if (found != null) {
          throw HttpError.badRequest("parameters '" + found + "' and '" + key + "' are one parameter (" + p.name()
              + "); give it once");
        }
        found = key;
      }
    }
    return found;
  }

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
