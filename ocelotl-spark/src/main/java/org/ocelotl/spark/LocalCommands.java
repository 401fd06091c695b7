package org.ocelotl.spark;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.ocelotl.app.Main;
import org.ocelotl.workspace.Workspace;

/**
 * The local tool's commands ({@code info}, {@code stats}, {@code overview}, {@code view}, …) run by
 * ocelotl-spark on traces and datasets that lie on a file system Hadoop reads (hdfs:, s3a: with its
 * connector, …), as the Spark import reads them (decision 055): every argument that is such a URI is
 * copied first into the workspace, under {@code fetched/}, and the command runs on the copy as
 * {@code ocelotl} runs it. A copy is kept while the remote files keep their lengths and times, so a
 * second command on the same dataset reads nothing from the cluster and its import is the
 * workspace's. {@code import} and {@code model} are Spark's own jobs here.
 */
final class LocalCommands {
  /** A URI with a scheme (two letters at least: "C:" is a drive) other than the local file system's. */
  private static final Pattern REMOTE = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]+:/.*");

  /** The stamp file beside each copy: its remote files' names, lengths and times when copied. */
  private static final String STAMP = ".stamp";

  private LocalCommands() {}

  /** Runs {@code ocelotl ARGS} on local copies of its remote arguments; its exit status. */
  static int run(String... args) {
    String[] local = args.clone();
    try {
      java.nio.file.Path fetched = workspace(args).resolve("fetched");
      Configuration hadoop = new Configuration();
      for (int i = 1; i < local.length; i++) {
        if (isRemote(local[i])) {
          local[i] = fetch(local[i], fetched, hadoop).toString();
        }
      }
    } catch (IllegalArgumentException | IOException e) {
      System.err.println("ocelotl-spark: " + SparkMain.reason(e));
      return 1;
    }
    return Main.run(local);
  }

  static boolean isRemote(String argument) {
    return REMOTE.matcher(argument).matches() && !argument.startsWith("file:");
  }

  /** The workspace the command names ({@code --workspace DIR} or {@code --workspace=DIR}), else the default. */
  private static java.nio.file.Path workspace(String[] args) {
    for (int i = 1; i < args.length; i++) {
      if (args[i].equals("--workspace") && i + 1 < args.length) {
        return java.nio.file.Path.of(args[i + 1]);
      }
      if (args[i].startsWith("--workspace=")) {
        return java.nio.file.Path.of(args[i].substring("--workspace=".length()));
      }
    }
    return Workspace.defaultDirectory();
  }

  /**
   * The local copy of a remote file or directory: {@code fetched/HASH/NAME}, HASH that of its URI,
   * NAME its own (the store the workspace makes of it is named after it, as for a local trace).
   * Copied again when a remote file's length or time differs from the stamp, into a hidden sibling
   * renamed into place, so that a command that fails halfway leaves the last complete copy or none.
   */
  static java.nio.file.Path fetch(String uri, java.nio.file.Path fetched, Configuration hadoop) throws IOException {
    Path remote = new Path(URI.create(uri));
    FileSystem fs = remote.getFileSystem(hadoop);
    remote = fs.makeQualified(remote);
    FileStatus root;
    try {
      root = fs.getFileStatus(remote);
    } catch (FileNotFoundException e) {
      throw new IllegalArgumentException(uri + ": no such file or directory");
    }
    List<FileStatus> files = root.isFile() ? List.of(root) : listing(fs, remote);
    String stamp = stamp(remote, root, files);
    java.nio.file.Path home = fetched.resolve(hash(remote.toString()));
    java.nio.file.Path copy = home.resolve(remote.getName().isEmpty() ? "root" : remote.getName());
    java.nio.file.Path stampFile = home.resolve(STAMP);
    if (Files.exists(copy) && Files.isRegularFile(stampFile)
        && Files.readString(stampFile, StandardCharsets.UTF_8).equals(stamp)) {
      return copy;
    }
    Files.createDirectories(home);
    java.nio.file.Path temporary = home.resolve("." + copy.getFileName() + "." + UUID.randomUUID() + ".part");
    try {
      for (FileStatus file : files) {
        java.nio.file.Path target = root.isFile() ? temporary : temporary.resolve(relative(remote, file.getPath()));
        Files.createDirectories(target.getParent());
        try (InputStream in = fs.open(file.getPath())) {
          Files.copy(in, target);
        }
      }
      if (!root.isFile()) {
        Files.createDirectories(temporary); // an empty directory stays one
      }
      Files.deleteIfExists(stampFile);
      delete(copy);
      Files.move(temporary, copy, StandardCopyOption.ATOMIC_MOVE);
      Files.writeString(stampFile, stamp, StandardCharsets.UTF_8);
      return copy;
    } finally {
      delete(temporary);
    }
  }

  /** Every file under a remote directory, by path. */
  private static List<FileStatus> listing(FileSystem fs, Path directory) throws IOException {
    List<FileStatus> files = new ArrayList<>();
    RemoteIterator<LocatedFileStatus> it = fs.listFiles(directory, true);
    while (it.hasNext()) {
      files.add(it.next());
    }
    files.sort(Comparator.comparing(f -> f.getPath().toString()));
    return files;
  }

  /** The path of a file under a directory, relative to it. */
  private static String relative(Path directory, Path file) {
    return directory.toUri().relativize(file.toUri()).getPath();
  }

  /** The URI, then per file its relative path, length and modification time: what a copy was made of. */
  private static String stamp(Path remote, FileStatus root, List<FileStatus> files) {
    StringBuilder stamp = new StringBuilder(remote.toString()).append('\n');
    for (FileStatus file : files) {
      stamp.append(root.isFile() ? "" : relative(remote, file.getPath())).append('\t').append(file.getLen())
          .append('\t').append(file.getModificationTime()).append('\n');
    }
    return stamp.toString();
  }

  private static String hash(String text) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e); // every JDK has SHA-256
    }
  }

  private static void delete(java.nio.file.Path path) throws IOException {
    if (!Files.exists(path)) {
      return;
    }
    try (Stream<java.nio.file.Path> paths = Files.walk(path)) {
      for (java.nio.file.Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
