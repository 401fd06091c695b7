package org.ocelotl.server;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;

/**
 * The web UI's files, served from the classpath by a fixed list: a request names an entry of
 * the list or gets a 404, so no path a client sends ever reaches a file lookup.
 */
final class Assets {
  private static final String FOLDER = "/org/ocelotl/web/";

  /** File name → content type. */
  private static final Map<String, String> FILES = Map.ofEntries(
      Map.entry("index.html", "text/html; charset=utf-8"),
      Map.entry("app.css", "text/css; charset=utf-8"),
      Map.entry("main.js", "text/javascript; charset=utf-8"),
      Map.entry("api.js", "text/javascript; charset=utf-8"),
      Map.entry("state.js", "text/javascript; charset=utf-8"),
      Map.entry("overview.js", "text/javascript; charset=utf-8"),
      Map.entry("curves.js", "text/javascript; charset=utf-8"),
      Map.entry("filters.js", "text/javascript; charset=utf-8"),
      Map.entry("details.js", "text/javascript; charset=utf-8"),
      Map.entry("stats.js", "text/javascript; charset=utf-8"),
      Map.entry("format.js", "text/javascript; charset=utf-8"),
      Map.entry("treemap.js", "text/javascript; charset=utf-8"),
      Map.entry("mapping.js", "text/javascript; charset=utf-8"),
      Map.entry("topology.js", "text/javascript; charset=utf-8"),
      Map.entry("selections.js", "text/javascript; charset=utf-8"),
      Map.entry("outliers.js", "text/javascript; charset=utf-8"),
      Map.entry("compare.js", "text/javascript; charset=utf-8"),
      Map.entry("query.js", "text/javascript; charset=utf-8"),
      Map.entry("times.js", "text/javascript; charset=utf-8"),
      Map.entry("favicon.svg", "image/svg+xml"));

  private Assets() {}

  static boolean exists(String name) {
    return FILES.containsKey(name);
  }

  static String contentType(String name) {
    return FILES.get(name);
  }

  /** The bytes of a listed file. */
  static byte[] read(String name) throws IOException {
    if (!exists(name)) {
      throw HttpError.notFound("no such file: " + name);
    }
    try (InputStream in = Assets.class.getResourceAsStream(FOLDER + name)) {
      if (in == null) {
        throw new IOException("asset " + name + " is missing from the build");
      }
      return in.readAllBytes();
    }
  }
}
