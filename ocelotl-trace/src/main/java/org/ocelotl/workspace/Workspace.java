package org.ocelotl.workspace;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.ocelotl.format.ctf.CtfReader;
import org.ocelotl.parquet.ParquetTable;
import org.ocelotl.scan.GanttSummary;
import org.ocelotl.store.SourceFile;
import org.ocelotl.store.StoreFormatException;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.StoreWriter;
import org.ocelotl.store.TraceStore;
import org.ocelotl.trace.TraceFormat;

/**
 * Where imported traces live: one store per trace file, keyed by the file's canonical path,
 * under {@code DIR/traces/NAME-HASH}. Every command that takes a trace calls
 * {@link #store}, which imports on first use and afterwards reuses the store as long as the
 * file is unchanged (same size, modification time and {@link SourceFile fingerprint}).
 *
 * <p>An import writes into {@code NAME-HASH.tmp-PID-N} beside the final directory, forces it
 * to the disk, then renames it into place: a killed import leaves only a temporary directory,
 * which {@link #list} ignores and the next command that opens this workspace deletes (once its
 * process is gone). Whatever writes a store (an import, a removal) holds its lock. Replacing an outdated store moves the old one aside first, so for an instant no
 * store is visible, never a partial one; a reader then simply imports again.
 */
public final class Workspace {
  static final String TRACES = "traces";
  private static final String TEMPORARY = ".tmp-";
  private static final String DISCARDED = ".old-";
  /**
   * A temporary or discarded directory: a store's name, then .tmp- or .old-, the process id and a
   * sequence number, at the end. A store's own name ends with its hash, so a trace named
   * "x.tmp-12-3.trace" is no temporary.
   */
  private static final java.util.regex.Pattern SCRATCH = java.util.regex.Pattern.compile("\\.(?:tmp|old)-(\\d+)-\\d+$");

  private static boolean isScratch(String name) {
    return SCRATCH.matcher(name).find();
  }
  private static final AtomicLong SEQUENCE = new AtomicLong();

  private final Path directory;
  private final Formats formats;
  private final int chunkCapacity;

  private Workspace(Path directory, Formats formats, int chunkCapacity) {
    this.directory = directory;
    this.formats = formats;
    this.chunkCapacity = chunkCapacity;
  }

  /** The workspace in {@code directory} (created if missing), reading the standard formats. */
  public static Workspace open(Path directory) throws IOException {
    return open(directory, Formats.standard(), StoreWriter.DEFAULT_CHUNK_CAPACITY);
  }

  /** With given formats and chunk capacity: for tests. */
  public static Workspace open(Path directory, Formats formats, int chunkCapacity) throws IOException {
    Files.createDirectories(directory.resolve(TRACES));
    Workspace workspace = new Workspace(directory.toAbsolutePath().normalize(), formats, chunkCapacity);
    workspace.removeAbandoned(); // a killed import's files go with the next command, not only the next import
    return workspace;
  }

  /**
   * The default workspace: {@code $OCELOTL_HOME}, else {@code $XDG_CACHE_HOME/ocelotl}, else
   * {@code ~/.cache/ocelotl}.
   */
  public static Path defaultDirectory() {
    return defaultDirectory(System.getenv(), System.getProperty("user.home"));
  }

  static Path defaultDirectory(Map<String, String> env, String userHome) {
    String home = env.get("OCELOTL_HOME");
    if (home != null && !home.isBlank()) {
      return Path.of(home);
    }
    String cache = env.get("XDG_CACHE_HOME");
    if (cache != null && !cache.isBlank()) {
      return Path.of(cache, "ocelotl");
    }
    return Path.of(userHome, ".cache", "ocelotl");
  }

  public Path directory() {
    return directory;
  }

  public Formats formats() {
    return formats;
  }

  /** Imports under way in this process, by store directory: a file lock excludes processes, not threads. */
  private static final java.util.concurrent.ConcurrentHashMap<Path, Object> IMPORTING =
      new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * The store of {@code trace}: reused if up to date, else imported now, once however many
   * processes and threads ask at the same time: the import holds a lock file
   * ({@code locks/NAME-HASH.lock} in the workspace), and whoever waited for it looks again before
   * importing.
   */
  public TraceStore store(Path trace, ImportOptions options, ImportProgress progress) throws IOException {
    Path file = canonical(trace);
    Optional<TraceStore> current = current(file, options, progress);
    if (current.isPresent()) {
      return withGanttSummary(current.get(), storeDirectory(file, options));
    }
    return locked(storeDirectory(file, options), () -> {
      Optional<TraceStore> meanwhile = current(file, options, ImportProgress.NONE);
      return meanwhile.isPresent() ? meanwhile.get() : importUnlocked(file, options, progress);
    });
  }

  /**
   * The store, its Gantt summary written first if it should have one and has none it can read (a
   * store imported before summaries existed, or before its format's version): once, under the
   * store's lock, so that no chart or model pays for it.
   */
  private TraceStore withGanttSummary(TraceStore store, Path target) throws IOException {
    int level = GanttSummary.finestLevelFor(store.metadata());
    if (level < 0 || GanttSummary.open(store).isPresent()) {
      return store;
    }
    return locked(target, () -> {
      if (GanttSummary.open(store).isEmpty()) {
        GanttSummary.write(store, level);
      }
      return store;
    });
  }

  private interface Locked<T> {
    T run() throws IOException;
  }

  /**
   * Runs what writes a store under its lock: a lock file ({@code locks/NAME-HASH.lock}) between
   * processes, a monitor between threads (a file lock excludes processes, not threads).
   */
  private <T> T locked(Path target, Locked<T> writing) throws IOException {
    synchronized (IMPORTING.computeIfAbsent(target, k -> new Object())) {
      Path locks = Files.createDirectories(directory.resolve("locks"));
      try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(
              locks.resolve(target.getFileName() + ".lock"), java.nio.file.StandardOpenOption.CREATE,
              java.nio.file.StandardOpenOption.WRITE);
          java.nio.channels.FileLock lock = channel.lock()) {
        return writing.run();
      }
    }
  }

  /** The store of {@code trace} if one exists and the file is unchanged since its import. */
  public Optional<TraceStore> current(Path trace) throws IOException {
    return current(canonical(trace), ImportOptions.DEFAULT, ImportProgress.NONE);
  }

  private Optional<TraceStore> current(Path file, ImportOptions options, ImportProgress progress) throws IOException {
    Path dir = storeDirectory(file, options);
    if (!Files.isDirectory(dir)) {
      return Optional.empty();
    }
    TraceStore store;
    try {
      store = TraceStore.open(dir);
    } catch (StoreFormatException e) {
      progress.note("the imported copy of " + file.getFileName() + " cannot be read (" + e.getMessage()
          + "); importing the trace again");
      return Optional.empty(); // written by another version, or damaged: import again
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
    StoreMetadata.Source source = store.metadata().source();
    boolean sameFormat = options.format() == null || options.format().equalsIgnoreCase(source.format());
    return sameFormat && SourceFile.unchanged(source, file) ? Optional.of(store) : Optional.empty();
  }

  /**
   * Imports {@code trace} now, replacing its store if it has one, under the store's lock: imports
   * of one file at once (several {@code ocelotl import}s, a server's) each replace the store whole,
   * one after the other.
   */
  public TraceStore importTrace(Path trace, ImportOptions options, ImportProgress progress) throws IOException {
    Path file = canonical(trace);
    return locked(storeDirectory(file, options), () -> importUnlocked(file, options, progress));
  }

  private TraceStore importUnlocked(Path file, ImportOptions options, ImportProgress progress) throws IOException {
    TraceFormat format = options.format() != null ? formats.named(options.format()) : formats.detect(file);
    removeAbandoned();
    Path target = storeDirectory(file, options);
    Path temporary = sibling(target, TEMPORARY);
    Files.createDirectory(temporary);
    try {
      Importer.importTrace(file, format, options, progress, temporary, chunkCapacity);
      // The Gantt summary of a large store, one more pass of the scan kernel: a chart of a window
      // with far more states than pixels then reads buckets, not records (decision 057).
      int level = GanttSummary.finestLevelFor(TraceStore.open(temporary).metadata());
      if (level >= 0) {
        GanttSummary.write(TraceStore.open(temporary), level);
      }
      forceDirectory(temporary);
      install(temporary, target);
    } catch (IOException e) {
      // The JDK's plain I/O errors name no file (a full disk: "No space left on device"): say where;
      // the others (a file not found, a format error) name theirs already.
      if (e.getClass() != IOException.class) {
        throw e;
      }
      throw new IOException("importing " + file + " into " + temporary.getParent() + ": " + e.getMessage(), e);
    } finally {
      deleteTree(temporary); // gone already when installed
    }
    return TraceStore.open(target);
  }

  /** Every complete store of the workspace, by trace name. Damaged stores are left out. */
  public List<TraceStore> list() throws IOException {
    List<TraceStore> stores = new ArrayList<>();
    try (Stream<Path> entries = Files.list(directory.resolve(TRACES))) {
      for (Path dir : entries.sorted().toList()) {
        String name = dir.getFileName().toString();
        if (isScratch(name) || !Files.isDirectory(dir)) {
          continue;
        }
        try {
          stores.add(TraceStore.open(dir));
        } catch (StoreFormatException | NoSuchFileException e) {
          // not a store this version reads; an import of its trace will replace it
        }
      }
    }
    stores.sort(Comparator.comparing((TraceStore s) -> s.metadata().name()).thenComparing(s -> s.metadata().source().path()));
    return stores;
  }

  /** A store and the name {@link #listed} gives it, which {@link #remove} takes. */
  public record Listed(String name, TraceStore store) {}

  /**
   * Every complete store ({@link #list}), each with a name of its own: the trace's name; where
   * two stores share it (two OTF2 archives both called traces.otf2), its directory's name and
   * the trace's name; where those are shared too (two readings of one file), the store's name.
   */
  public List<Listed> listed() throws IOException {
    List<TraceStore> stores = list();
    Map<String, Integer> names = new HashMap<>();
    Map<String, Integer> inDirectories = new HashMap<>();
    for (TraceStore store : stores) {
      names.merge(store.metadata().name(), 1, Integer::sum);
      inDirectories.merge(inDirectory(store), 1, Integer::sum);
    }
    List<Listed> listed = new ArrayList<>();
    for (TraceStore store : stores) {
      String name = store.metadata().name();
      listed.add(new Listed(names.get(name) == 1 ? name : inDirectories.get(inDirectory(store)) == 1
          ? inDirectory(store) : store.directory().getFileName().toString(), store));
    }
    return listed;
  }

  /** The trace's name after its directory's: ez_mpi4/eztrace_log.otf2. */
  private static String inDirectory(TraceStore store) {
    Path parent = Path.of(store.metadata().source().path()).getParent();
    Path dir = parent == null ? null : parent.getFileName();
    return (dir == null ? "" : dir + "/") + store.metadata().name();
  }

  /**
   * Removes the stores of a trace, named by its file (which may no longer exist; a CTF trace's
   * directory stands for its metadata file) — every reading of it, the default one and those with
   * user state rules — or one store, by the name {@link #listed} gives it or its directory's name.
   *
   * @return whether there was one
   */
  public boolean remove(String trace) throws IOException {
    Path byName = directory.resolve(TRACES).resolve(trace);
    Set<Path> dirs = new LinkedHashSet<>();
    if (!trace.contains("/") && !isScratch(trace) && Files.isDirectory(byName) && TraceStore.looksLikeStore(byName)) {
      dirs.add(byName);
    } else {
      Path file = canonicalOrAbsolute(Path.of(trace));
      Path byDefault = storeDirectory(file); // found even when damaged, so that rm mends it
      if (Files.isDirectory(byDefault)) {
        dirs.add(byDefault);
      }
      for (TraceStore store : list()) { // the readings with rules, named by a hash of their rules
        if (store.metadata().source().path().equals(file.toString())) {
          dirs.add(store.directory());
        }
      }
      if (dirs.isEmpty()) { // not a trace file: a name as 'ocelotl list' shows it
        for (Listed l : listed()) {
          if (l.name().equals(trace)) {
            dirs.add(l.store().directory());
          }
        }
      }
    }
    for (Path dir : dirs) {
      locked(dir, () -> {
        Path discarded = sibling(dir, DISCARDED);
        Files.move(dir, discarded, StandardCopyOption.ATOMIC_MOVE);
        deleteTree(discarded);
        return null;
      });
    }
    return !dirs.isEmpty();
  }

  /** The store directory of a trace file, existing or not. */
  public Path storeDirectory(Path canonicalTrace) {
    return storeDirectory(canonicalTrace, ImportOptions.DEFAULT);
  }

  /**
   * The store directory of a trace file read with {@code options}: user state rules give another
   * reading of the same file, so another store, beside the default one.
   */
  private Path storeDirectory(Path canonicalTrace, ImportOptions options) {
    String name = canonicalTrace.getFileName() == null ? "trace" : canonicalTrace.getFileName().toString();
    String safe = name.replaceAll("[^A-Za-z0-9._-]", "_");
    String reading = options.states() == null ? "" : "\nstates\n" + options.states().text();
    return directory.resolve(TRACES).resolve(safe + "-" + hash(canonicalTrace + reading));
  }

  /** The trace's real path; a directory stands for the one CTF trace in it (LTTng writes a tree). */
  private static Path canonical(Path trace) throws IOException {
    Path real;
    try {
      real = trace.toRealPath();
    } catch (NoSuchFileException e) {
      throw new NoSuchFileException(trace.toString(), null, "no such file");
    }
    if (!Files.isDirectory(real)) {
      return real;
    }
    // A Parquet dataset is named by its description file, a CTF trace by its metadata file.
    Path dataset = real.resolve(ParquetTable.DATASET_FILE);
    return Files.isRegularFile(dataset) ? dataset : CtfReader.metadataIn(real);
  }

  /** {@link #canonical}, or for a trace that is gone (or a directory without a CTF trace), its absolute path. */
  private static Path canonicalOrAbsolute(Path trace) {
    try {
      return canonical(trace);
    } catch (IOException e) {
      return trace.toAbsolutePath().normalize();
    }
  }

  private static String hash(String text) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 6);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  private static Path sibling(Path dir, String kind) {
    return dir.resolveSibling(dir.getFileName() + kind + ProcessHandle.current().pid() + "-" + SEQUENCE.incrementAndGet());
  }

  /**
   * Moves a complete store into place. An existing store (outdated, or written meanwhile by
   * another process) is moved aside and deleted; a rename cannot replace a non-empty directory.
   */
  private static void install(Path temporary, Path target) throws IOException {
    for (int attempt = 0; ; attempt++) {
      if (Files.exists(target)) {
        Path discarded = sibling(target, DISCARDED);
        try {
          Files.move(target, discarded, StandardCopyOption.ATOMIC_MOVE);
          deleteTree(discarded);
        } catch (NoSuchFileException gone) {
          // another process moved it first
        }
      }
      try {
        Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
        forceDirectory(target.getParent());
        return;
      } catch (AtomicMoveNotSupportedException e) {
        throw new IOException("the workspace's file system cannot rename directories atomically: " + target, e);
      } catch (FileSystemException e) {
        // Linux reports a non-empty target as a plain FileSystemException: a concurrent import
        // installed its store between our check and our move; replace it, a few times at most.
        if (!Files.exists(target) || attempt == 2) {
          throw e;
        }
      }
    }
  }

  /** Deletes temporary and discarded directories left by processes that are gone (killed imports). */
  private void removeAbandoned() throws IOException {
    try (Stream<Path> entries = Files.list(directory.resolve(TRACES))) {
      for (Path dir : entries.toList()) {
        String name = dir.getFileName().toString();
        java.util.regex.Matcher scratch = SCRATCH.matcher(name);
        if (scratch.find() && !alive(scratch.group(1))) {
          deleteTree(dir);
        }
      }
    }
  }

  private static boolean alive(String pid) {
    try {
      return ProcessHandle.of(Long.parseLong(pid)).map(ProcessHandle::isAlive).orElse(false);
    } catch (NumberFormatException e) { // more digits than a pid has: no process
      return false;
    }
  }

  static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> {
        try {
          Files.deleteIfExists(path);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  // Makes the directory's entries durable before the rename publishes them.
  private static void forceDirectory(Path dir) {
    try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
      channel.force(true);
    } catch (IOException e) {
      // some platforms cannot open a directory; the files themselves were forced already
    }
  }
}
