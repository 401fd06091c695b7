package org.ocelotl.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Refusals of a selections file found by fuzzing (SelectionFileFuzzTest), each with its exact message. */
class SelectionFileTest {
  private static final Path FILE = Path.of("s.json");

  /** Input not-utf8: it was the decoder's "Input length = 1", naming neither file nor place. */
  @Test
  void bytesThatAreNotUtf8AreNamedByTheirOffset() {
    byte[] bytes = {'{', '"', 'f', 'o', 'r', 'm', 'a', 't', '"', ':', ' ', '"', (byte) 0xFF, '"', '}'};
    assertEquals("s.json: not a selections file: expected UTF-8 text, found a byte that is not at offset 12",
        assertThrows(IllegalArgumentException.class, () -> SelectionFile.parse(FILE, bytes)).getMessage());
  }
}
