package org.ocelotl.modelfile;

import java.io.BufferedOutputStream;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.ocelotl.io.AtomicFile;
import org.ocelotl.model.MicroscopicModel;

/**
 * A model file of either format: binary when it starts with the binary magic, whatever its name,
 * or when its name ends with .ocm (so that a damaged binary file is told what is wrong with its
 * header, not that its first line is not CSV text); CSV otherwise.
 */
public final class ModelFiles {
  private ModelFiles() {}

  /**
   * Reads a CSV model ({@link ModelCsv#read}) or a binary one ({@link ModelBinary#read}).
   *
   * @param tree   the CSV tree file, or null; a binary model carries its own tree
   * @param slices the number of slices, or 0 for the file's own; a binary model holds exactly its own
   */
  public static MicroscopicModel read(Path model, Path tree, int slices) throws IOException {
    if (!model.toString().endsWith(ModelBinary.EXTENSION) && !ModelBinary.isBinary(model)) {
      return ModelCsv.read(model, tree, slices);
    }
    if (tree != null) {
      throw new ModelFormatException(model.toString(), "a binary model carries its own producer tree;"
          + " a tree file goes with a CSV model only");
    }
    MicroscopicModel read = ModelBinary.read(model);
    if (slices > 0 && slices != read.slices()) {
      throw new ModelFormatException(model.toString(), "the binary model holds " + read.slices() + " slices, "
          + slices + " were asked for; a binary model is read with its own slice count");
    }
    return read;
  }

  /**
   * Writes the model in the binary format when the file's name ends with .ocm, else as CSV (its
   * tree apart, {@link #writeTree}); the file appears complete or not at all.
   */
  public static void write(MicroscopicModel model, Path file) throws IOException {
    if (file.toString().endsWith(ModelBinary.EXTENSION)) {
      AtomicFile.write(file, out -> {
        BufferedOutputStream buffered = new BufferedOutputStream(out, 1 << 16);
        ModelBinary.write(model, buffered);
        buffered.flush();
      });
    } else {
      writeText(file, writer -> ModelCsv.write(model, writer));
    }
  }

  /** Writes the model's producer tree as CSV (producer,parent), complete or not at all. */
  public static void writeTree(MicroscopicModel model, Path file) throws IOException {
    writeText(file, writer -> ModelCsv.writeTree(model.tree(), writer));
  }

  private static void writeText(Path file, Text text) throws IOException {
    AtomicFile.write(file, out -> {
      Writer writer = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8));
      text.write(writer);
      writer.flush();
    });
  }

  private interface Text {
    void write(Writer writer) throws IOException;
  }
}
