package org.ocelotl.format.otf2;

import java.io.IOException;
import java.io.Serializable;
import java.nio.BufferUnderflowException;
import java.nio.charset.StandardCharsets;
import org.ocelotl.split.Otf2Files;
import org.ocelotl.trace.TraceFormatException;

/**
 * The anchor file ({@code NAME.otf2}): chunk header without event numbers, the magic "OTF2",
 * format numbers, chunk sizes, substrate, compression, and counts. Its definitions and event
 * files live beside it: {@code NAME.def} and {@code NAME/LOCATION.evt}, opened through
 * {@code files}, which the record carries to the tasks of a parallel import ({@link Otf2Split}).
 */
record Otf2Anchor(Otf2Files files, String version, long eventChunkSize, long defChunkSize,
    long locations, long globalDefinitions) implements Serializable {

  static final byte[] MAGIC = "OTF2".getBytes(StandardCharsets.US_ASCII);
  private static final int SUBSTRATE_POSIX = 1;
  private static final int COMPRESSION_NONE = 1;

  static Otf2Anchor read(Otf2Files files) throws IOException {
    // Opened here, not by Otf2Input.open: a missing anchor is the caller's error (no such file), not an
    // incomplete archive.
    Otf2Files.Source source = files.open(files.anchor());
    long size;
    try {
      size = source.size();
    } catch (IOException | RuntimeException e) {
      source.close();
      throw e;
    }
    try (Otf2Input in = Otf2Input.open(source, files.name(files.anchor()), Math.max(size, Otf2Input.CHUNK_HEADER_SIZE + 2),
        true)) {
      try {
        if (!in.string().equals("OTF2")) {
          throw in.error("not an OTF2 anchor file: magic \"OTF2\" missing", 2);
        }
        int anchorFormat = in.u8();
        if (anchorFormat == 0) {
          throw in.error("anchor format 0 is invalid", in.offset() - 1);
        }
        in.u8(); // trace format: every version so far is read the same way
        String version = in.u8() + "." + in.u8() + "." + in.u8();
        long eventChunkAt = in.offset();
        long eventChunk = checkChunkSize(in, "event", in.u64Full(), eventChunkAt);
        long defChunk = checkChunkSize(in, "definition", in.u64Full(), eventChunkAt + 8);
        long substrateAt = in.offset();
        int substrate = in.u8();
        int compression = in.u8();
        if (substrate != SUBSTRATE_POSIX) {
          throw in.error("file substrate " + substrate
              + " is not supported (only POSIX: one file per location; SIONlib is not)", substrateAt);
        }
        if (compression != COMPRESSION_NONE) {
          throw in.error("compressed archives (zlib) are not supported", substrateAt + 1);
        }
        long locations = in.u64Full();
        long definitions = in.u64Full();
        return new Otf2Anchor(files, version, eventChunk, defChunk, locations, definitions);
      } catch (BufferUnderflowException e) {
        throw in.error("anchor file truncated");
      }
    }
  }

  /**
   * A chunk size the reader can hold: refused here, at its byte, rather than when the files it
   * applies to are opened ({@link Otf2Input#open} allocates no more than a file's size anyway).
   */
  private static long checkChunkSize(Otf2Input in, String files, long size, long at) throws TraceFormatException {
    if (size < Otf2Input.CHUNK_HEADER_SIZE + 2 || size > Integer.MAX_VALUE) {
      throw in.error(files + " chunk size " + size + ": expected " + (Otf2Input.CHUNK_HEADER_SIZE + 2) + " to "
          + Integer.MAX_VALUE + " bytes", at);
    }
    return size;
  }

  /** The archive name: the anchor file name without ".otf2". */
  String name() {
    String fileName = files.anchor();
    return fileName.endsWith(".otf2") ? fileName.substring(0, fileName.length() - 5) : fileName;
  }

  /** The files below, relative to the anchor's directory ({@link Otf2Files}). */
  String globalDefinitionFile() {
    return name() + ".def";
  }

  String eventFile(long location) {
    return name() + "/" + Long.toUnsignedString(location) + ".evt";
  }

  String localDefinitionFile(long location) {
    return name() + "/" + Long.toUnsignedString(location) + ".def";
  }
}
