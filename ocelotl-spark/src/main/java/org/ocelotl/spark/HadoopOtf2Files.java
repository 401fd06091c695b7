package org.ocelotl.spark;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.ocelotl.split.Otf2Files;

/**
 * An OTF2 archive on a Hadoop file system (HDFS, S3A…): the files beside its anchor, opened
 * through Hadoop and read at positions, chunk after chunk, as the reader asks ({@link Otf2Files}):
 * nothing is copied, and a task that decodes one location opens only that location's files.
 * Serialisable for the tasks: the anchor's URI and the driver's Hadoop configuration in its
 * Writable form ({@link HadoopFiles#serialize}), read back once per JVM that opens a file.
 */
final class HadoopOtf2Files implements Otf2Files {
  private static final long serialVersionUID = 1L;

  private final String anchor; // Hadoop's Path does not serialise
  private final byte[] configuration;
  private transient Configuration hadoop;

  /** The archive of the anchor file {@code anchor} (qualified). */
  HadoopOtf2Files(Path anchor, Configuration hadoop) throws IOException {
    this.anchor = anchor.toString();
    this.configuration = HadoopFiles.serialize(hadoop);
    this.hadoop = hadoop;
  }

  @Override
  public String anchor() {
    return new Path(anchor).getName();
  }

  @Override
  public String name(String relative) {
    return path(relative).toString();
  }

  private Path path(String relative) {
    return new Path(new Path(anchor).getParent(), relative);
  }

  // Synchronised: the tasks of one executor share one broadcast copy.
  private synchronized Configuration hadoop() throws IOException {
    if (hadoop == null) {
      hadoop = HadoopFiles.deserialize(configuration);
    }
    return hadoop;
  }

  @Override
  public Source open(String relative) throws IOException {
    Path path = path(relative);
    FileSystem fs = path.getFileSystem(hadoop());
    FileStatus status;
    try {
      status = fs.getFileStatus(path);
    } catch (FileNotFoundException e) {
      throw new NoSuchFileException(path.toString());
    }
    FSDataInputStream in = fs.open(path);
    return new Source() {
      @Override
      public long size() {
        return status.getLen();
      }

      @Override
      public int read(long position, byte[] buffer, int offset, int length) throws IOException {
        return in.read(position, buffer, offset, length);
      }

      @Override
      public void close() throws IOException {
        in.close();
      }
    };
  }
}
