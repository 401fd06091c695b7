package org.ocelotl.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/** A server's access token kept in a file, so that its URL and the user's bookmarks survive restarts. */
public final class TokenFile {
  private TokenFile() {}

  /**
   * The token kept in {@code file}, or a new one written there (readable by its owner only)
   * when the file does not exist.
   *
   * @throws IllegalArgumentException naming the file when it holds something else than a token
   */
  public static String token(Path file) throws IOException {
    if (Files.exists(file)) {
      String kept = Files.readString(file, StandardCharsets.US_ASCII).strip();
      if (!Access.TOKEN.matcher(kept).matches()) {
        throw new IllegalArgumentException(file + ": not an Ocelotl token (43 characters A-Z a-z 0-9 _ -); "
            + "remove the file to draw a new one");
      }
      return kept;
    }
    String token = Access.newToken();
    Path temporary = Files.createTempFile(file.toAbsolutePath().getParent(), ".token-", ".tmp");
    try {
      try {
        Files.setPosixFilePermissions(temporary, PosixFilePermissions.fromString("rw-------"));
      } catch (UnsupportedOperationException e) {
        // not a POSIX file system: the directory's own protection applies
      }
      Files.writeString(temporary, token + "\n", StandardCharsets.US_ASCII);
      Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(temporary);
    }
    return token;
  }
}
