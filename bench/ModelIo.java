import java.io.BufferedWriter;
import java.io.Writer;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Model file throughput (run by bench/model_io.sh, not a test): reads the model file given 7
 * times and writes it back 7 times, printing the median MB/s of each. Runs against any build's
 * jar: the model file class is looked up by name, where it is now or where it was.
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
    Method read = csv.getMethod("read", Path.class, Path.class, int.class);
    Method write = csv.getMethod("write", Class.forName("org.ocelotl.model.MicroscopicModel"), Writer.class);
    double mb = Files.size(model) / 1e6;
    Path out = Files.createTempFile("model-io", ".csv");
    double[] reads = new double[7];
    double[] writes = new double[7];
    Object loaded = null;
    for (int r = 0; r < reads.length; r++) {
      long start = System.nanoTime();
      loaded = read.invoke(null, model, null, 0);
      reads[r] = mb / ((System.nanoTime() - start) / 1e9);
    }
    for (int r = 0; r < writes.length; r++) {
      long start = System.nanoTime();
      try (BufferedWriter writer = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
        write.invoke(null, loaded, writer);
      }
      writes[r] = Files.size(out) / 1e6 / ((System.nanoTime() - start) / 1e9);
    }
    Files.delete(out);
    Arrays.sort(reads);
    Arrays.sort(writes);
    System.out.printf("read  %.1f MB/s (median of 7; %.1f–%.1f)%nwrite %.1f MB/s (median of 7; %.1f–%.1f)%n",
        reads[3], reads[0], reads[6], writes[3], writes[0], writes[6]);
  }
}
