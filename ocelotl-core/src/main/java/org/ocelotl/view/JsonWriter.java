package org.ocelotl.view;

import java.util.List;
import java.util.function.BiConsumer;

/**
 * A minimal JSON writer for the geometry records (the core takes no library). Commas are placed
 * by tracking whether the current object or array already holds an element.
 */
final class JsonWriter {
  private final StringBuilder out = new StringBuilder();
  private boolean needsComma;

  JsonWriter open() {
    comma();
    out.append('{');
    needsComma = false;
    return this;
  }

  JsonWriter close() {
    out.append('}');
    needsComma = true;
    return this;
  }

  JsonWriter key(String key) {
    comma();
    string(key);
    out.append(':');
    needsComma = false;
    return this;
  }

  JsonWriter field(String key, String value) {
    return key(key).value(value);
  }

  JsonWriter field(String key, double value) {
    return key(key).value(value);
  }

  JsonWriter field(String key, boolean value) {
    key(key);
    comma();
    out.append(value);
    needsComma = true;
    return this;
  }

  JsonWriter value(String value) {
    comma();
    if (value == null) {
      out.append("null");
    } else {
      string(value);
    }
    needsComma = true;
    return this;
  }

  JsonWriter value(double value) {
    comma();
    number(value);
    needsComma = true;
    return this;
  }

  <T> JsonWriter array(String key, List<T> items, BiConsumer<JsonWriter, T> writer) {
    key(key);
    out.append('[');
    needsComma = false;
    for (T item : items) {
      writer.accept(this, item);
    }
    out.append(']');
    needsComma = true;
    return this;
  }

  private void comma() {
    if (needsComma) {
      out.append(',');
    }
  }

  private void number(double v) {
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      out.append((long) v);
    } else if (Double.isFinite(v)) {
      out.append(v);
    } else {
      out.append("null"); // JSON has no NaN or infinity
    }
  }

  private void string(String s) {
    org.ocelotl.json.Json.quote(s, out);
  }

  @Override
  public String toString() {
    return out.toString();
  }
}
