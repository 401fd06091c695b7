package org.ocelotl.server;

/** A refusal with its HTTP status and a message for the user; sent as {@code {"error": …}}. */
final class HttpError extends RuntimeException {
  private final int status;

  HttpError(int status, String message) {
    super(message, null, false, false);
    this.status = status;
  }

  static HttpError badRequest(String message) {
    return new HttpError(400, message);
  }

  static HttpError notFound(String message) {
    return new HttpError(404, message);
  }

  /** What a client sent, cut to a readable length: an error never echoes unbounded input. */
  static String quote(String text) {
    return text.length() <= 200 ? text : text.substring(0, 200) + "… (" + text.length() + " characters)";
  }

  int status() {
    return status;
  }
}
