import java.io.BufferedOutputStream;
import java.io.BufferedWriter;
import java.io.OutputStream;
import java.io.Writer;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Model file throughput (run by bench/model_io.sh, not a test): reads the CSV model file given 7
 * times and writes it back 7 times, printing the median MB/s of each; then, with a second
 * argument and a build that has the binary format, writes the model there as .ocm and does the
 * same with it. Runs against any build's jar: the classes are looked up by name, where they are
 * now or where they were.
 */
public class ModelIo {
  public static void main(String[] args) throws Exception {
    Path model = Path.of(args[0]);
    Class<?> csv;
    try {
      csv = Class.forName("org.ocelotl.modelfile.ModelCsv");
    } catch (ClassNotFoundException before) {
      csv = Class.forName("org.ocelotl." + "model.ModelCsv"); // where it was before decision 018
    }
    Class<?> microscopicModel = Class.forName("org.ocelotl.model.MicroscopicModel");
    Method read = csv.getMethod("read", Path.class, Path.class, int.class);
    Method write = csv.getMethod("write", microscopicModel, Writer.class);
    Object loaded = read.invoke(null, model, null, 0);
    Path out = Files.createTempFile("model-io", ".csv");
    report("csv   ", model, () -> read.invoke(null, model, null, 0), out, () -> {
      try (BufferedWriter writer = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
        write.invoke(null, loaded, writer);
      }
    });
    Files.delete(out);
    Class<?> binary;
    try {
      binary = Class.forName("org.ocelotl.modelfile.ModelBinary");
    } catch (ClassNotFoundException before) {
      return; // a build from before decision 024
    }
    if (args.length < 2) {
      return;
    }
    Path ocm = Path.of(args[1]);
    Method readBinary = binary.getMethod("read", Path.class);
    Method writeBinary = binary.getMethod("write", microscopicModel, OutputStream.class);
    Run writeOcm = () -> {
      try (OutputStream stream = new BufferedOutputStream(Files.newOutputStream(ocm), 1 << 16)) {
        writeBinary.invoke(null, loaded, stream);
      }
    };
    writeOcm.run();
    report("binary", ocm, () -> readBinary.invoke(null, ocm), ocm, writeOcm);
  }

  private interface Run {
    void run() throws Exception;
  }

  private static void report(String format, Path input, Run read, Path output, Run write) throws Exception {
    double[] reads = new double[7];
    double[] writes = new double[7];
    double mb = Files.size(input) / 1e6;
    for (int r = 0; r < reads.length; r++) {
      long start = System.nanoTime();
      read.run();
      reads[r] = mb / ((System.nanoTime() - start) / 1e9);
    }
    for (int r = 0; r < writes.length; r++) {
      long start = System.nanoTime();
      write.run();
      writes[r] = Files.size(output) / 1e6 / ((System.nanoTime() - start) / 1e9);
    }
    Arrays.sort(reads);
    Arrays.sort(writes);
    System.out.printf("%s read  %7.1f MB/s (median of 7; %.1f–%.1f), %.1f MB%n%s write %7.1f MB/s (median of 7;"
        + " %.1f–%.1f)%n", format, reads[3], reads[0], reads[6], mb, format, writes[3], writes[0], writes[6]);
  }
}
