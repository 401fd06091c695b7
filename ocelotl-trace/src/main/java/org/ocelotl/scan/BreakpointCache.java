package org.ocelotl.scan;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.ocelotl.aggregation.Aggregation;
import org.ocelotl.aggregation.Breakpoint;
import org.ocelotl.aggregation.Part;
import org.ocelotl.aggregation.Partition;
import org.ocelotl.aggregation.Qualities;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.model.ProducerTree;
import org.ocelotl.store.TraceStore;

/**
 * The breakpoints of past analyses, kept on disk beside the model cache ({@link ModelCache#DIRECTORY}/
 * of the store directory, so a re-import drops them with the store): revisiting an analysis after
 * the service forgot it, or after a restart, reads one small file instead of running the search.
 *
 * <p>Each breakpoint's line (p, gain, loss, size) is kept, and its parts where they were built when
 * the file was written (the partitions drawn so far: the service rewrites the file when it draws
 * another); the others are built on first request from qualities computed then ({@link
 * Qualities#kept}), which only moving p to a partition never drawn costs.
 *
 * <p>A file is named by the aggregation and a 64-bit hash of the model's content (tree, types,
 * every value bit for bit), not by the request: a model rebuilt approximately from another cached
 * one differs from a scan of the same request, and its breakpoints with it. The header repeats the
 * store's identity, the model's shape and the hash, all checked when read; a file that disagrees
 * in anything is deleted and the search runs again. Written under a temporary name and renamed, as
 * the model cache's files are. At most {@link #LIMIT_BYTES} per store, least recently used
 * (modification time, refreshed on a hit) deleted first.
 *
 * <pre>
 * magic "OCLBREAK" 8 bytes | version int | store identity long | aggregation code int | model hash long
 * | leaves int | slices int | types int | breakpoints int
 * then per breakpoint: p double | gain double | loss double | size int | parts known byte (1 or 0)
 *   | when known, size × (node int, first int, last int)
 * </pre>
 * Numbers big-endian ({@link DataOutputStream}'s order): the file is read whole, never mapped.
 */
public final class BreakpointCache {
  public static final String SUFFIX = ".breakpoints";
  /** Size limit of the breakpoint files of one store: a spatiotemporal search's list is a few MB at most. */
  static final long LIMIT_BYTES = 64L << 20;
  static final byte[] MAGIC = "OCLBREAK".getBytes(StandardCharsets.US_ASCII);
  static final int VERSION = 1;

  private BreakpointCache() {}

  /** The kept breakpoints of this model and aggregation, or null when none are kept. */
  public static List<Breakpoint> read(TraceStore store, MicroscopicModel model, Aggregation aggregation) {
    long hash = hash(model);
    Path file = file(store, hash, aggregation);
    long identity = ModelCache.identity(store.metadata().source());
    try (InputStream bytes = Files.newInputStream(file);
        DataInputStream in = new DataInputStream(new java.io.BufferedInputStream(bytes, 1 << 16))) {
      List<Breakpoint> breakpoints = read(in, identity, hash, model, aggregation);
      if (breakpoints == null) {
        Files.deleteIfExists(file);
        return null;
      }
      touch(file);
      return breakpoints;
    } catch (NoSuchFileException absent) {
      return null;
    } catch (IOException | RuntimeException unreadable) {
      // Truncated or foreign: the search gives the answer again, and rewrites the file.
      try {
        Files.deleteIfExists(file);
      } catch (IOException ignored) {
        // another process holds or removed it: the next write replaces it
      }
      return null;
    }
  }

  /** Whether breakpoints of this model and aggregation are kept (a file is there; {@link #read} checks it). */
  public static boolean has(TraceStore store, MicroscopicModel model, Aggregation aggregation) {
    return Files.isRegularFile(file(store, hash(model), aggregation));
  }

  /** Keeps the breakpoints of this model and aggregation; a cache that cannot be written only costs speed. */
  public static void write(TraceStore store, MicroscopicModel model, Aggregation aggregation,
      List<Breakpoint> breakpoints) {
    if (ModelCache.limitFrom(System.getenv()) == 0) {
      return; // the user turned the caches' writes off (OCELOTL_MODEL_CACHE_MB=0)
    }
    Path directory = store.directory().resolve(ModelCache.DIRECTORY);
    long hash = hash(model);
    Path file = file(store, hash, aggregation);
    Path temporary = ModelCache.temporary(directory);
    try {
      Files.createDirectories(directory);
      try (DataOutputStream out = new DataOutputStream(new java.io.BufferedOutputStream(
          Files.newOutputStream(temporary), 1 << 16))) {
        out.write(MAGIC);
        out.writeInt(VERSION);
        out.writeLong(ModelCache.identity(store.metadata().source()));
        out.writeInt(aggregation.ordinal() + 1);
        out.writeLong(hash);
        out.writeInt(model.leaves());
        out.writeInt(model.slices());
        out.writeInt(model.typeCount());
        out.writeInt(breakpoints.size());
        for (Breakpoint b : breakpoints) {
          Partition partition = b.partition();
          out.writeDouble(b.p());
          out.writeDouble(partition.gain());
          out.writeDouble(partition.loss());
          out.writeInt(partition.size());
          // Only parts already built: building each of thousands costs a dynamic programme.
          out.writeBoolean(partition.partsBuilt());
          if (partition.partsBuilt()) {
            for (Part part : partition.parts()) {
              out.writeInt(part.node());
              out.writeInt(part.first());
              out.writeInt(part.last());
            }
          }
        }
      }
      Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      evict(directory, file);
    } catch (IOException e) {
      try {
        Files.deleteIfExists(temporary);
      } catch (IOException ignored) {
        // a temporary left by a full disk is removed with the store, or by the model cache's sweep
      }
    }
  }

  private static List<Breakpoint> read(DataInputStream in, long identity, long hash, MicroscopicModel model,
      Aggregation aggregation) throws IOException {
    byte[] magic = new byte[MAGIC.length];
    in.readFully(magic);
    if (!Arrays.equals(magic, MAGIC) || in.readInt() != VERSION || in.readLong() != identity
        || in.readInt() != aggregation.ordinal() + 1 || in.readLong() != hash
        || in.readInt() != model.leaves() || in.readInt() != model.slices() || in.readInt() != model.typeCount()) {
      return null;
    }
    int count = in.readInt();
    if (count < 1 || count > model.values().length + 1) {
      return null; // a search gives at most one partition per cell, and always one
    }
    double[] p = new double[count];
    double[] gain = new double[count];
    double[] loss = new double[count];
    int[] size = new int[count];
    List<List<Part>> parts = new ArrayList<>(count);
    for (int b = 0; b < count; b++) {
      p[b] = in.readDouble();
      gain[b] = in.readDouble();
      loss[b] = in.readDouble();
      size[b] = in.readInt();
      if (size[b] < 1 || size[b] > model.values().length) {
        return null;
      }
      List<Part> known = null;
      if (in.readBoolean()) {
        known = new ArrayList<>(size[b]);
        for (int i = 0; i < size[b]; i++) {
          known.add(new Part(in.readInt(), in.readInt(), in.readInt()));
        }
      }
      parts.add(known);
    }
    return in.read() == -1 ? Qualities.kept(model, aggregation, p, gain, loss, size, parts) : null;
  }

  private static Path file(TraceStore store, long hash, Aggregation aggregation) {
    return store.directory().resolve(ModelCache.DIRECTORY)
        .resolve(aggregation.name().toLowerCase(java.util.Locale.ROOT) + "-" + Long.toHexString(hash) + SUFFIX);
  }

  /**
   * A hash of everything the search reads: the tree's shape, the type count and every value's bits.
   * Each word goes through a multiply-xorshift mix (a SplitMix64 step) before it enters, so values
   * that differ in one low bit, or the same values in another order, give unrelated hashes. A few
   * tens of ms on a 20-million-cell model: nothing beside the search it spares.
   */
  static long hash(MicroscopicModel model) {
    ProducerTree tree = model.tree();
    long h = mix(tree.size()) ^ mix(model.slices() * 31L + model.typeCount());
    for (int node = 0; node < tree.size(); node++) {
      h = mix(h + tree.parent(node));
    }
    for (double value : model.values()) {
      h = mix(h + Double.doubleToRawLongBits(value));
    }
    return h;
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  private static void touch(Path file) {
    try {
      Files.setLastModifiedTime(file, FileTime.from(Instant.now()));
    } catch (IOException ignored) {
      // evicted meanwhile by another process: its place in the LRU no longer matters
    }
  }

  /** Deletes the least recently used breakpoint files until they fit in the limit; never {@code keep}. */
  private static void evict(Path directory, Path keep) throws IOException {
    ModelCache.evictLeastRecent(directory, SUFFIX, LIMIT_BYTES, keep);
  }

}
