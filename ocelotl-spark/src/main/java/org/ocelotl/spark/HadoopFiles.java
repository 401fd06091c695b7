package org.ocelotl.spark;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.ocelotl.store.SourceFile;
import org.ocelotl.store.StoreMetadata;

/**
 * The jobs' inputs and outputs on any file system Hadoop reads (file:, hdfs:, s3a: with its
 * connector on the class path): a path without a scheme is on the default file system
 * ({@code fs.defaultFS}, the local one unless the cluster says otherwise), as for Spark's own
 * readers. Local files stay java.nio paths where the local tool's code needs them (the OTF2
 * reader, the export's writer).
 */
final class HadoopFiles {
  private HadoopFiles() {}

  /** The path with its file system's scheme and authority. */
  static Path qualified(String path, Configuration hadoop) throws IOException {
    Path p = new Path(path);
    return p.getFileSystem(hadoop).makeQualified(p);
  }

  static boolean isLocal(Path qualified) {
    return "file".equals(qualified.toUri().getScheme());
  }

  /** How messages name a qualified path: a local one as a local path, others by their URI. */
  static String name(Path qualified) {
    return isLocal(qualified) ? local(qualified).toString() : qualified.toString();
  }

  /** A qualified local path as java.nio's. */
  static java.nio.file.Path local(Path qualified) {
    return java.nio.file.Path.of(qualified.toUri());
  }

  /** What the file system says of the file, refused in one line if it is not a readable file. */
  static FileStatus file(Path path, Configuration hadoop) throws IOException {
    FileStatus status;
    try {
      status = path.getFileSystem(hadoop).getFileStatus(path);
    } catch (FileNotFoundException e) {
      throw new IllegalArgumentException(name(path) + ": no such file");
    }
    if (!status.isFile()) {
      throw new IllegalArgumentException(name(path) + ": not a file");
    }
    return status;
  }

  static InputStream open(Path path, Configuration hadoop) throws IOException {
    return path.getFileSystem(hadoop).open(path);
  }

  /** The first bytes of a file (fewer if it is shorter). */
  static byte[] head(Path path, Configuration hadoop, int bytes) throws IOException {
    try (InputStream in = open(path, hadoop)) {
      return in.readNBytes(bytes);
    }
  }

  /**
   * The file described as the local import describes its trace (size, time, fingerprint), read
   * through Hadoop, under {@code name} (a local file's real path, as the local import names it).
   */
  static StoreMetadata.Source describe(String name, FileStatus file, Configuration hadoop, String format)
      throws IOException {
    try (FSDataInputStream in = file.getPath().getFileSystem(hadoop).open(file.getPath())) {
      return SourceFile.describe(name, file.getLen(), file.getModificationTime(),
          (position, buffer) -> {
            int done = 0;
            int read;
            while (done < buffer.length && (read = in.read(position + done, buffer, done, buffer.length - done)) > 0) {
              done += read;
            }
            return done;
          }, format);
    }
  }

  /** Refuses an existing output unless it is to be replaced, before any work. */
  static void requireAbsentOrReplaced(Path out, Configuration hadoop, boolean replace) throws IOException {
    if (!replace && out.getFileSystem(hadoop).exists(out)) {
      throw new IllegalArgumentException(name(out) + " exists; --force replaces it");
    }
  }

  /** A hidden sibling of {@code out}, where its dataset is written before it is renamed to {@code out}. */
  static Path temporarySibling(Path out) {
    return new Path(out.getParent(), "." + out.getName() + "." + UUID.randomUUID() + ".part");
  }

  /**
   * Moves what the local directory holds into {@code target} (created if need be), replacing what
   * is there: on the local file system a rename (a copy across disks), on another one a copy and a
   * delete. Replacing lets a retried task overwrite the files of an attempt that failed.
   */
  static void moveInto(java.nio.file.Path directory, Path target, Configuration hadoop) throws IOException {
    FileSystem fs = target.getFileSystem(hadoop);
    fs.mkdirs(target);
    try (Stream<java.nio.file.Path> entries = Files.list(directory)) {
      for (java.nio.file.Path entry : entries.sorted().toList()) {
        Path to = new Path(target, entry.getFileName().toString());
        if (isLocal(target)) {
          Files.move(entry, local(to), StandardCopyOption.REPLACE_EXISTING);
        } else {
          fs.copyFromLocalFile(true, true, new Path(entry.toUri()), to);
        }
      }
    }
  }

  /** Renames the complete dataset {@code temporary} to {@code out}, replacing it if allowed. */
  static void publish(Path temporary, Path out, Configuration hadoop, boolean replace) throws IOException {
    FileSystem fs = out.getFileSystem(hadoop);
    if (fs.exists(out)) {
      if (!replace) {
        throw new IllegalArgumentException(name(out) + " exists; --force replaces it");
      }
      fs.delete(out, true);
    }
    if (!fs.rename(temporary, out)) {
      throw new IOException(out + ": could not rename " + temporary + " to it");
    }
  }

  /** The configuration as bytes (Hadoop's own Writable form): tasks open files as the driver would. */
  static byte[] serialize(Configuration hadoop) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      hadoop.write(out);
    }
    return bytes.toByteArray();
  }

  static Configuration deserialize(byte[] bytes) throws IOException {
    Configuration hadoop = new Configuration(false);
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
      hadoop.readFields(in);
    }
    return hadoop;
  }
}
