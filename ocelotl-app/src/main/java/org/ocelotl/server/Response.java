package org.ocelotl.server;


/** What a handler answers: status, content type, body, and an optional download file name. */
record Response(int status, String contentType, byte[] body, String fileName) {
  static Response json(byte[] json) {
    return new Response(200, "application/json; charset=utf-8", json, null);
  }

  static Response download(String contentType, byte[] body, String fileName) {
    return new Response(200, contentType, body, fileName);
  }
}
