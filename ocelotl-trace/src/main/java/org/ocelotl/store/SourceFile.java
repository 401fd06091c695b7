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

  /**
   * Describes a file of another file system (Hadoop's: HDFS, S3…) from what that file system says
   * of it; the fingerprint is the one {@link #describe(Path, String)} gives the same bytes.
   */
  public static StoreMetadata.Source describe(String path, long size, long modified, Bytes file, String format)
      throws IOException {
    return new StoreMetadata.Source(path, size, modified, fingerprint(file, size), format);
  }

  /** A file's bytes read at a position. */
  public interface Bytes {
    /** Reads into {@code buffer} from {@code position} until it is full or the file ends; returns the bytes read. */
    int read(long position, byte[] buffer) throws IOException;
  }

  /** Whether the file still is what {@code source} describes. */
  public static boolean unchanged(StoreMetadata.Source source, Path file) throws IOException {
    return Files.size(file) == source.size()
        && Files.getLastModifiedTime(file).toMillis() == source.modified()
        && fingerprint(file, source.size()).equals(source.fingerprint());
  }

  static String fingerprint(Path file, long size) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      return fingerprint((position, buffer) -> {
        int done = 0;
        int read;
        while (done < buffer.length
            && (read = channel.read(ByteBuffer.wrap(buffer, done, buffer.length - done), position + done)) > 0) {
          done += read;
        }
        return done;
      }, size);
    }
  }

  private static String fingerprint(Bytes file, long size) throws IOException {
    MessageDigest digest;
    try {
      digest = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
    byte[] buffer = new byte[FINGERPRINT_BYTES];
    digest.update(buffer, 0, file.read(0, buffer));
    if (size > FINGERPRINT_BYTES) {
      digest.update(buffer, 0, file.read(Math.max(FINGERPRINT_BYTES, size - FINGERPRINT_BYTES), buffer));
    }
    return HexFormat.of().formatHex(digest.digest(), 0, 16);
  }
}
