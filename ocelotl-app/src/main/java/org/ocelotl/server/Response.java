package org.ocelotl.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import org.ocelotl.export.Format;

/** What a handler answers: status, content type, body, and an optional download file name. */
record Response(int status, String contentType, byte[] body, String fileName) {
  static Response json(byte[] json) {
    return new Response(200, "application/json; charset=utf-8", json, null);
  }

  static Response download(String contentType, byte[] body, String fileName) {
    return new Response(200, contentType, body, fileName);
  }

  /** What draws a picture in a format. */
  @FunctionalInterface
  interface Drawing {
    void draw(Format format, OutputStream out) throws IOException;
  }

  /** A picture as a download: {@code format} svg or png, named after the view's file stem. */
  static Response picture(String format, String stem, Drawing drawing) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Format f = format.equals("svg") ? Format.SVG : Format.PNG;
    drawing.draw(f, out);
    return download(f == Format.SVG ? "image/svg+xml" : "image/png", out.toByteArray(),
        stem.replaceAll("[^A-Za-z0-9._-]", "_") + "." + format);
  }
}
