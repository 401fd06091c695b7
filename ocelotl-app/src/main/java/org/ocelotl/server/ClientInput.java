package org.ocelotl.server;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.ocelotl.analysis.JsonForm;

/**
 * The pieces of a request a refusal may quote, longer than an error may echo: the path's
 * segments, the query's names and values (and a list value's items), the body's JSON strings,
 * the Host and Origin headers, each as the server decoded it. An error's message has each such
 * piece it holds cut to {@link HttpError#quote} (the server's last word on echoed input, whatever
 * the handler that refused it wrote).
 */
record ClientInput(List<String> longPieces) {
  static ClientInput of(HttpListener.Request request) {
    List<String> pieces = new ArrayList<>();
    String path = request.uri().getRawPath();
    if (path != null) {
      for (String segment : path.split("/")) {
        pieces.add(decoded(segment));
      }
    }
    String query = request.uri().getRawQuery();
    if (query != null) {
      for (String pair : query.split("&")) {
        for (String part : pair.split("=", 2)) {
          String value = decoded(part);
          pieces.add(value);
          pieces.addAll(List.of(value.split(",")));
        }
      }
    }
    for (String header : List.of("Host", "Origin")) {
      String value = request.headers().getFirst(header);
      if (value != null) {
        pieces.add(value);
      }
    }
    if (request.body().length > HttpError.ECHOED) {
      String body = new String(request.body(), StandardCharsets.UTF_8);
      pieces.add(body);
      try {
        strings(JsonForm.parse(body), pieces);
      } catch (IllegalArgumentException e) {
        // not JSON: the body whole is all there is to quote
      }
    }
    // Longest first: a piece that holds another is cut before the other is looked for.
    return new ClientInput(pieces.stream().filter(p -> p.length() > HttpError.ECHOED).distinct()
        .sorted(Comparator.comparingInt(String::length).reversed()).toList());
  }

  boolean longerThanEchoed() {
    return !longPieces.isEmpty();
  }

  /** The message with each long piece of input in it cut as {@link HttpError#quote} cuts it. */
  String cut(String message) {
    String cut = message;
    for (String piece : longPieces) {
      cut = cut.replace(piece, HttpError.quote(piece));
    }
    return cut;
  }

  private static String decoded(String raw) {
    try {
      return URLDecoder.decode(raw, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return raw;
    }
  }

  private static void strings(JsonNode node, List<String> into) {
    if (node == null) {
      return;
    }
    if (node.isTextual()) {
      into.add(node.asText());
    }
    node.fieldNames().forEachRemaining(into::add);
    node.elements().forEachRemaining(child -> strings(child, into));
  }
}
