package org.ocelotl.modelfile;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Fuzz targets for the model and tree files that {@code ocelotl aggregate} reads (issue 14): the
 * file is read, or refused with a {@link ModelFormatException} whose message starts with the path
 * of the file at fault; any other exception is a finding. {@code mvn verify} runs the kept inputs
 * under {@code ModelFileFuzzTestInputs/<target>/}; {@code scripts/fuzz} fuzzes for real.
 */
class ModelFileFuzzTest {
  private static final String MODEL = "producer,slice,type,value\nleaf,0,run,1.5\nleaf,1,wait,2\n";

  @FuzzTest(maxDuration = "24h")
  void model(byte[] data) throws IOException {
    Path dir = Files.createTempDirectory("ocelotl-fuzz");
    try {
      Path model = Files.write(dir.resolve("m.csv"), data);
      read(model, null, model);
    } finally {
      delete(dir);
    }
  }

  /** The binary model (decision 024), read as every --model is: by its magic or its .ocm name. */
  @FuzzTest(maxDuration = "24h")
  void binaryModel(byte[] data) throws IOException {
    Path dir = Files.createTempDirectory("ocelotl-fuzz");
    try {
      Path model = Files.write(dir.resolve("m.ocm"), data);
      try {
        ModelFiles.read(model, null, 0);
      } catch (ModelFormatException refused) {
        if (!refused.getMessage().startsWith(model.toString())) {
          throw new AssertionError("a refusal that does not name the file: " + refused.getMessage(), refused);
        }
      }
    } finally {
      delete(dir);
    }
  }

  @FuzzTest(maxDuration = "24h")
  void tree(byte[] data) throws IOException {
    Path dir = Files.createTempDirectory("ocelotl-fuzz");
    try {
      Path model = Files.writeString(dir.resolve("m.csv"), MODEL);
      Path tree = Files.write(dir.resolve("t.csv"), data);
      read(model, tree, tree);
    } finally {
      delete(dir);
    }
  }

  private static void read(Path model, Path tree, Path fuzzed) throws IOException {
    try {
      ModelCsv.read(model, tree, 0);
    } catch (ModelFormatException refused) {
      String message = refused.getMessage();
      if (!message.startsWith(fuzzed.toString()) && !message.startsWith(model.toString())) {
        throw new AssertionError("a refusal that does not name the file: " + message, refused);
      }
    }
  }

  private static void delete(Path dir) throws IOException {
    try (var files = Files.list(dir)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        Files.delete(file);
      }
    }
    Files.delete(dir);
  }
}
