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

  /**
   * Describes a trace as a workspace reads it: a trace of several files (an OTF2 archive, named
   * by its anchor; a CTF trace, by its metadata) by every file the reading uses, its fingerprint
   * extended by the path, size and modification time of each ({@link #readingFiles}), so that a
   * deleted, cut or rewritten event or stream file makes the store stale.
   */
  public static StoreMetadata.Source describeReading(Path file, String format) throws IOException {
    StoreMetadata.Source anchor = describe(file, format);
    return new StoreMetadata.Source(anchor.path(), anchor.size(), anchor.modified(),
        anchor.fingerprint() + readingFilesPrint(file, format), format);
  }

  /** Whether the trace still is what {@code source} describes: its file, and every file the reading used. */
  public static boolean unchanged(StoreMetadata.Source source, Path file) throws IOException {
    return Files.size(file) == source.size()
        && Files.getLastModifiedTime(file).toMillis() == source.modified()
        && (fingerprint(file, source.size()) + readingFilesPrint(file, source.format())).equals(source.fingerprint());
  }

  /**
   * The trace's size as a user counts it: every file its reading uses (an OTF2 archive's anchor,
   * definitions and event files; a CTF trace's metadata and streams), not the anchor's alone; the
   * size recorded at import when the trace is gone (or a file of it went while it was counted: a
   * listing shows what it can rather than fail).
   */
  public static long readingSize(StoreMetadata.Source source) {
    Path file = Path.of(source.path());
    try {
      long size = Files.size(file);
      for (Path f : readingFiles(file, source.format())) {
        size += Files.size(f);
      }
      return size;
    } catch (IOException e) {
      return source.size();
    }
  }

  /**
   * The files besides {@code file} that a reading of the format uses: an OTF2 archive's global
   * definitions ({@code NAME.def}) and everything under its directory ({@code NAME/}: the event
   * and local definition files); a CTF trace's stream files, the files beside its metadata.
   * None for the formats of one file.
   */
  static java.util.List<Path> readingFiles(Path file, String format) throws IOException {
    Path dir = file.getParent();
    if (dir == null) {
      return java.util.List.of();
    }
    java.util.List<Path> files = new java.util.ArrayList<>();
    if ("otf2".equals(format)) {
      String name = file.getFileName().toString().replaceFirst("\\.otf2$", "");
      Path definitions = dir.resolve(name + ".def");
      if (Files.isRegularFile(definitions)) {
        files.add(definitions);
      }
      Path archive = dir.resolve(name);
      if (Files.isDirectory(archive)) {
        try (java.util.stream.Stream<Path> all = Files.walk(archive)) {
          all.filter(Files::isRegularFile).forEach(files::add);
        }
      }
    } else if ("ctf".equals(format)) {
      try (java.util.stream.Stream<Path> beside = Files.list(dir)) {
        beside.filter(p -> Files.isRegularFile(p) && !p.equals(file)).forEach(files::add);
      }
    }
    files.sort(null);
    return files;
  }

  /** "" for a trace of one file; else "+" and a hash of each reading file's path, size and time. */
  private static String readingFilesPrint(Path file, String format) throws IOException {
    java.util.List<Path> files = readingFiles(file, format);
    if (files.isEmpty()) {
      return "";
    }
    MessageDigest digest = sha256();
    for (Path f : files) {
      String entry = file.getParent().relativize(f) + "\0" + Files.size(f) + "\0"
          + Files.getLastModifiedTime(f).toMillis() + "\n";
      digest.update(entry.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    return "+" + HexFormat.of().formatHex(digest.digest(), 0, 16);
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
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
    MessageDigest digest = sha256();
    byte[] buffer = new byte[FINGERPRINT_BYTES];
    digest.update(buffer, 0, file.read(0, buffer));
    if (size > FINGERPRINT_BYTES) {
      digest.update(buffer, 0, file.read(Math.max(FINGERPRINT_BYTES, size - FINGERPRINT_BYTES), buffer));
    }
    return HexFormat.of().formatHex(digest.digest(), 0, 16);
  }
}
