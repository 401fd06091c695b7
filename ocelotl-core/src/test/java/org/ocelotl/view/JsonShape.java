package org.ocelotl.view;

/** Bracket depth of a JSON text after its last character, ignoring brackets inside strings. */
final class JsonShape {
  private JsonShape() {}

  static int depthAfter(String json) {
    int depth = 0;
    boolean inString = false;
    for (int i = 0; i < json.length(); i++) {
      char c = json.charAt(i);
      if (inString) {
        if (c == '\\') {
          i++;
        } else if (c == '"') {
          inString = false;
        }
      } else if (c == '"') {
        inString = true;
      } else if (c == '{' || c == '[') {
        depth++;
      } else if (c == '}' || c == ']') {
        depth--;
        if (depth < 0) {
          return depth;
        }
      }
    }
    return depth;
  }
}
