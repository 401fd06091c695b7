package org.ocelotl.format.otf2;

import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.ocelotl.trace.TraceFormatException;

/**
 * The anchor file ({@code NAME.otf2}): chunk header without event numbers, the magic "OTF2",
 * format numbers, chunk sizes, substrate, compression, and counts. Its definitions and event
 * files live beside it: {@code NAME.def} and {@code NAME/LOCATION.evt}.
 */
record Otf2Anchor(Path file, String version, long eventChunkSize, long defChunkSize,
    long locations, long globalDefinitions) {

  static final byte[] MAGIC = "OTF2".getBytes(StandardCharsets.US_ASCII);
  private static final int SUBSTRATE_POSIX = 1;
  private static final int COMPRESSION_NONE = 1;

  static Otf2Anchor read(Path file) throws IOException {
    long size = Files.size(file);
    try (Otf2Input in = Otf2Input.open(file, Math.max(size, Otf2Input.CHUNK_HEADER_SIZE + 2), true)) {
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
        return new Otf2Anchor(file, version, eventChunk, defChunk, locations, definitions);
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
    String fileName = file.getFileName().toString();
    return fileName.endsWith(".otf2") ? fileName.substring(0, fileName.length() - 5) : fileName;
  }

  Path globalDefinitionFile() {
    return file.resolveSibling(name() + ".def");
  }

  Path eventFile(long location) {
    return file.resolveSibling(name()).resolve(Long.toUnsignedString(location) + ".evt");
  }

  Path localDefinitionFile(long location) {
    return file.resolveSibling(name()).resolve(Long.toUnsignedString(location) + ".def");
  }
}
