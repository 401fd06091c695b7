package org.ocelotl.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * What identifies a trace file's content cheaply: size, modification time, and a hash of its
 * first and last {@value #FINGERPRINT_BYTES} bytes. The hash catches a file rewritten with the
 * same size within the file system's time resolution (or with its time restored), as long as
 * the change touches either end, which is where appended and regenerated traces differ.
 */
public final class SourceFile {
  static final int FINGERPRINT_BYTES = 64 * 1024;

  private SourceFile() {}

  /** Describes the file as it is now; {@code file} should be canonical (real path). */
  public static StoreMetadata.Source describe(Path file, String format) throws IOException {
    long size = Files.size(file);
    long modified = Files.getLastModifiedTime(file).toMillis();
    return new StoreMetadata.Source(file.toString(), size, modified, fingerprint(file, size), format);
  }

  /** Whether the file still is what {@code source} describes. */
  public static boolean unchanged(StoreMetadata.Source source, Path file) throws IOException {
    return Files.size(file) == source.size()
        && Files.getLastModifiedTime(file).toMillis() == source.modified()
        && fingerprint(file, source.size()).equals(source.fingerprint());
  }

  static String fingerprint(Path file, long size) throws IOException {
    MessageDigest digest;
    try {
      digest = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      ByteBuffer buffer = ByteBuffer.allocate(FINGERPRINT_BYTES);
      digest.update(read(channel, buffer, 0));
      if (size > FINGERPRINT_BYTES) {
        digest.update(read(channel, buffer, Math.max(FINGERPRINT_BYTES, size - FINGERPRINT_BYTES)));
      }
    }
    return HexFormat.of().formatHex(digest.digest(), 0, 16);
  }

  private static ByteBuffer read(FileChannel channel, ByteBuffer buffer, long at) throws IOException {
    buffer.clear();
    long offset = at;
    int read;
    while (buffer.hasRemaining() && (read = channel.read(buffer, offset)) > 0) {
      offset += read;
    }
    return buffer.flip();
  }
}
