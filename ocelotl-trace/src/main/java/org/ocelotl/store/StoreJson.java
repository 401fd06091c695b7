package org.ocelotl.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;

/**
 * The store metadata's JSON, by Jackson: plain values in (maps in order, lists, Long for
 * integers, Double for other numbers, strings, booleans, null) and the same plain values out, so
 * that {@link StoreMetadata} validates every field itself with its own messages.
 */
final class StoreJson {
  private static final ObjectMapper MAPPER = new ObjectMapper()
      .enable(DeserializationFeature.USE_LONG_FOR_INTS);
  /** Two-space indents, "key": value, one array item a line. */
  private static final ObjectWriter PRETTY = MAPPER.writer(new DefaultPrettyPrinter()
      .withSeparators(Separators.createDefaultInstance().withObjectFieldValueSpacing(Separators.Spacing.AFTER))
      .withArrayIndenter(DefaultIndenter.SYSTEM_LINEFEED_INSTANCE.withLinefeed("\n"))
      .withObjectIndenter(DefaultIndenter.SYSTEM_LINEFEED_INSTANCE.withLinefeed("\n")));

  private StoreJson() {}

  /** Indented, with a final newline: a person may read the file. */
  static String pretty(Object value) {
    try {
      return PRETTY.writeValueAsString(value) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write the store metadata: " + e.getOriginalMessage(), e);
    }
  }

  /** One value on one line, for messages. */
  static String compact(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      return String.valueOf(value);
    }
  }

  /** @throws IllegalArgumentException with what is wrong and where */
  static Object parse(String text) {
    try {
      return MAPPER.readValue(text, Object.class);
    } catch (JsonProcessingException e) {
      String where = e.getLocation() == null ? ""
          : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
      throw new IllegalArgumentException(e.getOriginalMessage() + where);
    }
  }
}
