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

  /** Characters of a client's input that an error may echo. */
  static final int ECHOED = 200;

  /** What a client sent, cut to a readable length: an error never echoes unbounded input. */
  static String quote(String text) {
    return text.length() <= ECHOED ? text : text.substring(0, ECHOED) + "… (" + text.length() + " characters)";
  }

  int status() {
    return status;
  }
}
