package org.ocelotl.scan;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.ocelotl.aggregation.Work;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.TraceStore;

/**
 * Builds models through an on-disk cache kept in the trace's store directory, under
 * {@value #DIRECTORY}/ (a re-import replaces the store directory, and with it the cache).
 *
 * <p>What is cached are the additive sums of a scanned model ({@link ModelSums}), one file per
 * (metric, window, N), at the finest granularity: every producer its own row, every type its own
 * column. A request with producer or type filters (a subset, an exclusion, a depth cut) is
 * answered from that file by summing its rows and columns as the filters route them, without
 * touching the trace; only a finest model too large to keep (see {@code finest}) is replaced by a
 * file of the filtered model itself. A request is served, best first, by:
 * <ol>
 *   <li>a cached model on the very same grid: bit-identical to a rescan (a filtered one when its
 *       filters keep producers apart; a depth cut adds the same sums in another order);
 *   <li>unless the request demands exact: a cached model of the same filters whose window
 *       covers the request's and whose slices are no wider, rebuilt by summing its slices —
 *       exact when every new boundary is an old one (preferred), else approximate (slices
 *       that straddle a new boundary are split in proportion to the overlap) and flagged so;
 *   <li>a scan of the trace, whose sums are then cached.
 * </ol>
 * The cache of one trace holds at most {@link #limitBytes()}; after each write the least
 * recently used files (by modification time, which a hit refreshes) are deleted until it fits.
 * Cache files are written under a temporary name and renamed, so concurrent processes never
 * see half a file; a file that fails validation is deleted and the model scanned again.
 */
public final class ModelCache {
  /** Default size limit of the cache of one trace. */
  public static final long DEFAULT_LIMIT_BYTES = 256L << 20;
  /** Environment variable overriding the limit, in MiB. */
  public static final String LIMIT_ENV = "OCELOTL_MODEL_CACHE_MB";
  /** Sub-directory of a store directory holding its cached models. */
  public static final String DIRECTORY = "models";
  /**
   * An approximate rebuild needs at least this many cached slices per new slice: only the two
   * straddled cached slices at its ends are split, so at most 2 in 10 of its content is an
   * estimate (usually far less, as the split follows time).
   */
  public static final int MIN_FINE_SLICES = 10;
  private static final AtomicLong SEQUENCE = new AtomicLong();

  private final long limitBytes;
  private final AtomicLong scans = new AtomicLong();
  /** Recently used cache files already read, by path and store identity, in access order. */
  private final Map<String, ModelSums> memory = new LinkedHashMap<>(16, 0.75f, true);
  private final long memoryLimit;
  private long memoryBytes;

  /** With a disk limit per trace; up to an eighth of the heap keeps recently read files in memory. */
  public ModelCache(long limitBytes) {
    if (limitBytes < 0) {
      throw new IllegalArgumentException("the model cache limit must be ≥ 0 bytes, got " + limitBytes);
    }
    this.limitBytes = limitBytes;
    this.memoryLimit = Math.min(limitBytes, Runtime.getRuntime().maxMemory() / 8);
  }

  /** The cache with the limit from {@value #LIMIT_ENV}, else {@link #DEFAULT_LIMIT_BYTES}. */
  public static ModelCache standard() {
    return new ModelCache(limitFrom(System.getenv()));
  }

  static long limitFrom(Map<String, String> env) {
    String mib = env.get(LIMIT_ENV);
    if (mib == null || mib.isBlank()) {
      return DEFAULT_LIMIT_BYTES;
    }
    try {
      long value = Long.parseLong(mib.trim());
      if (value >= 0) {
        return value << 20;
      }
    } catch (NumberFormatException ignored) {
      // reported below
    }
    throw new IllegalArgumentException(LIMIT_ENV + " must be a whole number of MiB ≥ 0, found '" + mib + "'");
  }

  public long limitBytes() {
    return limitBytes;
  }

  /** Number of trace scans this cache has run (the others were served from files). */
  public long scans() {
    return scans.get();
  }

  /**
   * Same contract as {@link ModelBuilder#build}, served from the cache where it can be.
   *
   * @throws IOException when the cache directory cannot be read
   */
  public BuiltModel build(TraceStore store, ModelRequest request) throws IOException {
    return build(store, request, Work.NONE);
  }

  /** {@link #build(TraceStore, ModelRequest)}, telling {@code work} how far a scan has come. */
  public BuiltModel build(TraceStore store, ModelRequest request, Work work) throws IOException {
    ModelPlan plan = ModelPlan.of(store, request);
    ModelPlan fine = finest(store, request, plan);
    Path directory = store.directory().resolve(DIRECTORY);
    long identity = identity(store.metadata().source());
    if (Files.isDirectory(directory)) {
      Served served = cached(directory, identity, plan, request.exact());
      if (served == null && fine != plan) {
        served = cached(directory, identity, fine, request.exact());
        ModelSums projected = served == null ? null : served.sums.projected(fine, plan);
        served = projected == null ? null : new Served(projected, served.exact);
      }
      if (served != null) {
        return ModelBuilder.model(plan, served.sums, served.exact);
      }
    }
    ModelPlan scanned = fine != null ? fine : plan;
    ModelSums sums = ModelBuilder.scan(store, scanned, Runtime.getRuntime().availableProcessors(), work);
    scans.incrementAndGet();
    save(directory, identity, scanned, sums);
    if (scanned != plan) {
      ModelSums projected = sums.projected(fine, plan);
      if (projected != null) {
        return ModelBuilder.model(plan, projected, true);
      }
      sums = ModelBuilder.scan(store, plan, Runtime.getRuntime().availableProcessors(), work);
      scans.incrementAndGet();
    }
    return ModelBuilder.model(plan, sums, true);
  }

  /**
   * The plan of the request without its producer and type filters — every producer its own row,
   * every type its own column — of which filtered models are projections, so that one scan and
   * one cache file serve every filter ({@code plan} itself when it has none). Null when that
   * model would take more than an eighth of the heap or more than the cache's limit: the
   * filtered model is then scanned and cached alone, as its filters make it smaller.
   */
  private ModelPlan finest(TraceStore store, ModelRequest request, ModelPlan plan) {
    ModelPlan fine;
    try {
      fine = ModelPlan.of(store, request.withProducers(ProducerSelection.ALL).withTypes(List.of()));
    } catch (IllegalArgumentException tooLarge) {
      return null;
    }
    if (fine.key().equals(plan.key())) {
      return plan;
    }
    long bytes = (long) ModelSums.arrayCount(plan.metric()) * fine.leaves() * fine.grid().slices() * fine.types()
        * Double.BYTES;
    return bytes <= Math.min(limitBytes, Runtime.getRuntime().maxMemory() / 8) ? fine : null;
  }

  /** Sums served from the cache, on the requested grid; exact unless split in proportion. */
  private record Served(ModelSums sums, boolean exact) {}

  /** The plan's sums from a cached file of its rows and columns, or null. */
  private Served cached(Path directory, long identity, ModelPlan plan, boolean exactOnly) throws IOException {
    Candidate best = best(directory, identity, plan, exactOnly);
    if (best == null) {
      return null;
    }
    ModelSums sums = remembered(best.file, identity, plan);
    if (sums == null) {
      return null;
    }
    touch(best.file);
    if (best.rebinning == null) {
      return new Served(sums.copy(), true); // the remembered arrays stay unshared
    }
    return new Served(sums.rebin(best.rebinning, plan.grid()), best.rebinning.exact());
  }

  // A server rebuilding zooms from one fine model reads its file once.
  private ModelSums remembered(Path file, long identity, ModelPlan plan) throws IOException {
    String key = file + "@" + identity;
    synchronized (memory) {
      ModelSums sums = memory.get(key);
      if (sums != null) {
        return sums;
      }
    }
    ModelSums sums = load(file, identity, plan);
    if (sums == null) {
      return null;
    }
    long bytes = (long) sums.arrays().length * sums.cells() * Double.BYTES;
    synchronized (memory) {
      if (bytes <= memoryLimit && memory.put(key, sums) == null) {
        memoryBytes += bytes;
        var oldest = memory.entrySet().iterator();
        while (memoryBytes > memoryLimit && oldest.hasNext()) {
          ModelSums evicted = oldest.next().getValue();
          oldest.remove();
          memoryBytes -= (long) evicted.arrays().length * evicted.cells() * Double.BYTES;
        }
      }
    }
    return sums;
  }

  /** A cached file that can serve the plan; {@code rebinning} null when it holds the very grid. */
  private record Candidate(Path file, SliceGrid grid, Rebinning rebinning) {}

  private static Candidate best(Path directory, long identity, ModelPlan plan, boolean exactOnly) throws IOException {
    SliceGrid target = plan.grid();
    Candidate best = null;
    try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, plan.key() + "-*" + ModelCacheFile.SUFFIX)) {
      for (Path file : files) {
        ModelCacheFile.Header header = header(file);
        if (header == null || header.identity() != identity || !header.key().equals(plan.key())) {
          continue;
        }
        SliceGrid grid = header.grid();
        if (grid.equals(target)) {
          return new Candidate(file, grid, null);
        }
        if (exactOnly || !Rebinning.covers(grid, target) || grid.width() > target.width()) {
          continue;
        }
        Candidate candidate = new Candidate(file, grid, Rebinning.of(grid, target));
        if (!candidate.rebinning.exact() && grid.width() * MIN_FINE_SLICES > target.width()) {
          continue; // too coarse to split in proportion without misleading
        }
        if (best == null || better(candidate, best)) {
          best = candidate;
        }
      }
    }
    return best;
  }

  // Exact before approximate; among exact ones the fewest slices (least to read), among
  // approximate ones the narrowest slices (smallest split error).
  private static boolean better(Candidate a, Candidate b) {
    if (a.rebinning.exact() != b.rebinning.exact()) {
      return a.rebinning.exact();
    }
    return a.rebinning.exact() ? a.grid.slices() < b.grid.slices() : a.grid.width() < b.grid.width();
  }

  /** The header of a cache file; a file that is not one is deleted. Null if unusable. */
  private static ModelCacheFile.Header header(Path file) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      ModelCacheFile.Header header = ModelCacheFile.readHeader(channel);
      if (header == null) {
        Files.deleteIfExists(file);
      }
      return header;
    } catch (NoSuchFileException evictedMeanwhile) {
      return null;
    }
  }

  private static ModelSums load(Path file, long identity, ModelPlan plan) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      ModelCacheFile.Header header = ModelCacheFile.readHeader(channel);
      if (header == null || header.identity() != identity || header.leaves() != plan.leaves()
          || header.types() != plan.types() || header.metricCode() != ModelCacheFile.metricCode(plan.metric())
          || header.arrays() != ModelSums.arrayCount(plan.metric()) || !header.key().equals(plan.key())) {
        Files.deleteIfExists(file);
        return null;
      }
      ModelSums sums = ModelCacheFile.readSums(channel, header, plan.metric());
      if (sums == null) {
        Files.deleteIfExists(file);
      }
      return sums;
    } catch (NoSuchFileException evictedMeanwhile) {
      return null;
    }
  }

  private static void touch(Path file) {
    try {
      Files.setLastModifiedTime(file, FileTime.from(Instant.now()));
    } catch (IOException ignored) {
      // another process evicted it meanwhile: its order in the LRU no longer matters
    }
  }

  private void save(Path directory, long identity, ModelPlan plan, ModelSums sums) {
    if (ModelCacheFile.fileBytes(plan.key(), sums) > limitBytes) {
      return;
    }
    try {
      Files.createDirectories(directory);
      removeAbandoned(directory);
      Path file = directory.resolve(ModelCacheFile.fileName(plan.key(), plan.grid()));
      ModelCacheFile.write(file, identity, plan.key(), sums, temporary(directory));
      evict(directory, file);
    } catch (IOException e) {
      // A cache that cannot be written (read-only workspace, full disk) only costs speed:
      // the model itself is complete.
    }
  }

  /**
   * A fresh temporary name in the cache directory for a file being written (models, breakpoints):
   * the process id lets {@link #removeAbandoned} tell a dead writer's leftovers from a live one's.
   */
  static Path temporary(Path directory) {
    return directory.resolve(".tmp-" + ProcessHandle.current().pid() + "-" + SEQUENCE.incrementAndGet());
  }

  private static final java.util.regex.Pattern TEMPORARY = java.util.regex.Pattern.compile("\\.tmp-(\\d{1,18})-\\d+");

  /** Deletes the temporaries of processes that died writing them (killed, out of memory). */
  private static void removeAbandoned(Path directory) throws IOException {
    try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, ".tmp-*")) {
      for (Path file : files) {
        java.util.regex.Matcher temporary = TEMPORARY.matcher(file.getFileName().toString());
        if (temporary.matches() && !ProcessHandle.of(Long.parseLong(temporary.group(1))).map(ProcessHandle::isAlive).orElse(false)) {
          Files.deleteIfExists(file);
        }
      }
    }
  }

  /** Deletes the least recently used files until the directory fits in the limit; never {@code keep}. */
  private void evict(Path directory, Path keep) throws IOException {
    evictLeastRecent(directory, ModelCacheFile.SUFFIX, limitBytes, keep);
  }

  /**
   * Deletes the least recently used files of {@code directory} ending in {@code suffix} until they
   * hold at most {@code limitBytes}; never {@code keep}. The model and breakpoint caches share it.
   */
  static void evictLeastRecent(Path directory, String suffix, long limitBytes, Path keep) throws IOException {
    record Entry(Path file, long size, FileTime used) {}
    List<Entry> entries = new ArrayList<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "*" + suffix)) {
      for (Path file : files) {
        try {
          entries.add(new Entry(file, Files.size(file), Files.getLastModifiedTime(file)));
        } catch (NoSuchFileException evictedMeanwhile) {
          // gone already
        }
      }
    }
    long total = entries.stream().mapToLong(Entry::size).sum();
    entries.sort(Comparator.comparing(Entry::used));
    for (Entry entry : entries) {
      if (total <= limitBytes) {
        break;
      }
      if (!entry.file.equals(keep)) {
        Files.deleteIfExists(entry.file);
        total -= entry.size;
      }
    }
  }


  /** What ties a cache file to the trace file as it was imported. */
  static long identity(StoreMetadata.Source source) {
    long h = source.path().hashCode();
    h = h * 1_000_003 + source.size();
    h = h * 1_000_003 + source.modified();
    h = h * 1_000_003 + source.fingerprint().hashCode();
    return h * 1_000_003 + source.format().hashCode();
  }
}
