package org.ocelotl.format.ctf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.stream.Stream;
import org.ocelotl.trace.TraceFormatException;

/**
 * A CTF trace: its metadata file and the stream files beside it, their events merged in time
 * order (ties in the order of the files' names).
 *
 * <p>The stream files are every regular file of the metadata's directory but the metadata and
 * hidden files. LTTng also writes {@code index/NAME.idx} for each stream file it created: a stream
 * file an index names but that is absent is a cut trace, refused rather than read in part.
 */
final class CtfTrace implements AutoCloseable {
  private final Path metadataFile;
  private final CtfMetadata metadata;
  private final List<CtfStream> streams;
  private final PriorityQueue<CtfStream> waiting;
  private CtfStream current;
  /** By time, ties by the file's rank. */
  private final Comparator<CtfStream> order = Comparator.comparingLong(CtfStream::timestamp)
      .thenComparingInt(CtfStream::order);

  private CtfTrace(Path metadataFile, CtfMetadata metadata, List<CtfStream> streams) {
    this.metadataFile = metadataFile;
    this.metadata = metadata;
    this.streams = streams;
    this.waiting = new PriorityQueue<>(Math.max(1, streams.size()), order);
  }

  /** The trace of {@code metadataFile}, whose content, parsed, is {@code metadata}. */
  static CtfTrace open(Path metadataFile, CtfMetadata metadata) throws IOException {
    List<Path> files = streamFiles(metadataFile);
    List<CtfStream> streams = new ArrayList<>();
    try {
      for (Path file : files) {
        streams.add(CtfStream.open(file, metadata, streams.size()));
      }
      CtfTrace trace = new CtfTrace(metadataFile, metadata, streams);
      trace.start();
      return trace;
    } catch (IOException | RuntimeException e) {
      for (CtfStream stream : streams) {
        stream.close();
      }
      throw e;
    }
  }

  private static List<Path> streamFiles(Path metadataFile) throws IOException {
    Path dir = metadataFile.toAbsolutePath().getParent();
    List<Path> files;
    try (Stream<Path> entries = Files.list(dir)) {
      files = entries.filter(Files::isRegularFile)
          .filter(p -> !p.getFileName().equals(metadataFile.getFileName()) && !p.getFileName().toString().startsWith("."))
          .sorted().toList();
    }
    Path index = dir.resolve("index");
    if (Files.isDirectory(index)) {
      try (Stream<Path> entries = Files.list(index)) {
        for (Path idx : entries.sorted().toList()) {
          String name = idx.getFileName().toString();
          Path stream = dir.resolve(name.substring(0, name.length() - ".idx".length()));
          if (name.endsWith(".idx") && !Files.exists(stream)) {
            throw new TraceFormatException(stream + ": missing (a stream file of the trace: " + index.relativize(idx)
                + " indexes it beside " + metadataFile.getFileName() + ")");
          }
        }
      }
    }
    if (files.isEmpty()) {
      throw new TraceFormatException(metadataFile + ": no stream file beside this metadata (the trace is empty or cut)");
    }
    return files;
  }

  private void start() throws IOException {
    for (CtfStream stream : streams) {
      if (stream.next()) {
        waiting.add(stream);
      }
    }
  }

  CtfMetadata metadata() {
    return metadata;
  }

  Path metadataFile() {
    return metadataFile;
  }

  List<CtfStream> streams() {
    return streams;
  }

  /** Moves to the earliest event not yet seen, of any stream; false when none is left. */
  boolean next() throws IOException {
    if (current != null && current.next()) {
      CtfStream earliest = waiting.peek();
      if (earliest == null || order.compare(current, earliest) < 0) {
        return true; // still the earliest: most events follow one of their own stream
      }
      waiting.add(current);
    }
    current = waiting.poll();
    return current != null;
  }

  /** The stream whose event is the current one. */
  CtfStream current() {
    return current;
  }

  /** Bytes read from all stream files. */
  long bytesRead() {
    long sum = 0;
    for (CtfStream stream : streams) {
      sum += stream.position();
    }
    return sum;
  }

  @Override
  public void close() throws IOException {
    for (CtfStream stream : streams) {
      stream.close();
    }
  }
}
