package org.ocelotl.analysis;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * JSON read into plain Java values for assertions: objects as ordered maps, arrays as lists,
 * integers as Long, other numbers as Double.
 */
public final class PlainJson {
  private static final ObjectMapper MAPPER = new ObjectMapper().enable(DeserializationFeature.USE_LONG_FOR_INTS);

  private PlainJson() {}

  public static String write(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new AssertionError(e);
    }
  }

  public static Object parse(String text) {
    try {
      return MAPPER.readValue(text, Object.class);
    } catch (JsonProcessingException e) {
      throw new AssertionError("not JSON: " + e.getOriginalMessage() + "\n" + text, e);
    }
  }
}
