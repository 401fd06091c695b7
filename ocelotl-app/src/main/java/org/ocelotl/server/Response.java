package org.ocelotl.server;

import java.nio.charset.StandardCharsets;

/** What a handler answers: status, content type, body, and an optional download file name. */
record Response(int status, String contentType, byte[] body, String fileName) {
  static Response json(String json) {
    return new Response(200, "application/json; charset=utf-8", json.getBytes(StandardCharsets.UTF_8), null);
  }

  static Response download(String contentType, byte[] body, String fileName) {
    return new Response(200, contentType, body, fileName);
  }
}
