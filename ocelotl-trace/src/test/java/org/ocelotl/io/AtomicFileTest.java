package org.ocelotl.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFileTest {
  @TempDir Path tmp;

  @Test
  void aFailedWriteLeavesThePreviousFileAndNoTemporary() throws IOException {
    Path file = tmp.resolve("table.csv");
    Files.writeString(file, "old");
    assertThrows(IOException.class, () -> AtomicFile.write(file, out -> {
      out.write("half".getBytes(StandardCharsets.UTF_8));
      throw new IOException("disk full");
    }));
    assertEquals("old", Files.readString(file));
    try (Stream<Path> files = Files.list(tmp)) {
      assertEquals(1, files.count());
    }
  }

  @Test
  void aDeviceIsWrittenToNotReplaced() throws IOException {
    Path devNull = Path.of("/dev/null");
    AtomicFile.write(devNull, out -> out.write(1));
    assertTrue(!Files.isRegularFile(devNull), "/dev/null is still a device");
  }

  @Test
  void newFilesGetOrdinaryPermissions() throws IOException {
    Path file = tmp.resolve("sub/picture.svg");
    AtomicFile.write(file, out -> out.write("<svg/>".getBytes(StandardCharsets.UTF_8)));
    assertEquals("<svg/>", Files.readString(file));
    assertTrue(Files.isReadable(file));
    assertTrue(Files.getPosixFilePermissions(file).contains(java.nio.file.attribute.PosixFilePermission.OTHERS_READ),
        "not the owner-only permissions of a temporary file");
  }
}
