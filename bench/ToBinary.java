import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.modelfile.ModelBinary;
import org.ocelotl.modelfile.ModelCsv;

/** For the benchmarks: a CSV model (and tree) rewritten as a binary .ocm. Usage: M.csv [T.csv] M.ocm */
public class ToBinary {
  public static void main(String[] args) throws Exception {
    Path tree = args.length > 2 ? Path.of(args[1]) : null;
    MicroscopicModel model = ModelCsv.read(Path.of(args[0]), tree, 0);
    try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(Path.of(args[args.length - 1])), 1 << 16)) {
      ModelBinary.write(model, out);
    }
  }
}
