package org.ocelotl.split;

import java.io.Closeable;
import java.io.IOException;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Where the files of an OTF2 archive are read from: a local directory, or another file system
 * (Hadoop's, in ocelotl-spark). A file is named by its path relative to the anchor's directory,
 * with '/' between names: the anchor {@code NAME.otf2}, the global definitions {@code NAME.def},
 * and per location {@code NAME/LOCATION.evt} and {@code NAME/LOCATION.def}.
 *
 * <p>The reader reads a file chunk after chunk at increasing positions (the OTF2 reader's input), so a
 * file system that streams serves as well as a local disk and no file is read whole or copied.
 * Serialisable, so that an engine ships it with the archive's definitions to its tasks
 * ({@link MessageSplit}), each of which then opens only its own location's files.
 */
public interface Otf2Files extends Serializable {
  /** The anchor file's name, {@code NAME.otf2}. */
  String anchor();

  /** How messages name a file of the archive (a local path, a URI). */
  String name(String relative);

  /**
   * Opens a file of the archive.
   *
   * @throws NoSuchFileException if it does not exist
   */
  Source open(String relative) throws IOException;

  /** One open file of the archive. */
  interface Source extends Closeable {
    /** The file's size in bytes. */
    long size() throws IOException;

    /** Reads up to {@code length} bytes at {@code position}; the count read, -1 past the end. */
    int read(long position, byte[] buffer, int offset, int length) throws IOException;
  }

  /** The archive of the anchor file {@code anchor} on the local file system. */
  static Otf2Files local(Path anchor) {
    return new Local(anchor.toString());
  }

  /** A local archive, by its anchor's path (a string: java.nio's Path does not serialise). */
  record Local(String anchorPath) implements Otf2Files {
    @Override
    public String anchor() {
      return Path.of(anchorPath).getFileName().toString();
    }

    @Override
    public String name(String relative) {
      return path(relative).toString();
    }

    private Path path(String relative) {
      return Path.of(anchorPath).resolveSibling(relative);
    }

    @Override
    public Source open(String relative) throws IOException {
      FileChannel channel = FileChannel.open(path(relative), StandardOpenOption.READ);
      return new Source() {
        @Override
        public long size() throws IOException {
          return channel.size();
        }

        @Override
        public int read(long position, byte[] buffer, int offset, int length) throws IOException {
          return channel.read(ByteBuffer.wrap(buffer, offset, length), position);
        }

        @Override
        public void close() throws IOException {
          channel.close();
        }
      };
    }
  }
}
