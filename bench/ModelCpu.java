import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.List;
import org.ocelotl.aggregation.Aggregation;
import org.ocelotl.aggregation.Breakpoint;
import org.ocelotl.aggregation.Qualities;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.modelfile.ModelFiles;

/**
 * Where Ocelotl's CPU goes on a model file, in one JVM (not a test): ROUNDS rounds of the read,
 * the qualities and the exact breakpoint search, each round's CPU seconds of the whole process
 * (JIT compilers and workers included) and of the main thread. The first round is the cold one
 * `ocelotl aggregate` pays; the last is the kernel once compiled. Arguments: MODE MODEL [TREE];
 * -Drounds=N (5). Compile it first: run as a source file, the JVM's start would include javac's.
 *
 *   javac -proc:none -cp ocelotl-app/target/ocelotl.jar -d /tmp/modelcpu bench/ModelCpu.java
 *   java -cp ocelotl-app/target/ocelotl.jar:/tmp/modelcpu ModelCpu temporal M.csv
 */
public class ModelCpu {
  public static void main(String[] args) throws Exception {
    Aggregation aggregation = Aggregation.valueOf(args[0].toUpperCase());
    Path tree = args.length > 2 ? Path.of(args[2]) : null;
    int rounds = Integer.getInteger("rounds", 5);
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    System.out.printf("JVM start to main: %.3f s CPU%n", os.getProcessCpuTime() / 1e9);
    for (int round = 1; round <= rounds; round++) {
      long p0 = os.getProcessCpuTime(), t0 = threads.getCurrentThreadCpuTime();
      MicroscopicModel model = ModelFiles.read(Path.of(args[1]), tree, 0);
      long p1 = os.getProcessCpuTime(), t1 = threads.getCurrentThreadCpuTime();
      List<Breakpoint> breakpoints = Qualities.of(model, aggregation).breakpoints();
      long p2 = os.getProcessCpuTime(), t2 = threads.getCurrentThreadCpuTime();
      System.out.printf("round %d: read %.3f s CPU (main %.3f), qualities and search %.3f s CPU (main %.3f), %d partitions%n",
          round, (p1 - p0) / 1e9, (t1 - t0) / 1e9, (p2 - p1) / 1e9, (t2 - t1) / 1e9, breakpoints.size());
    }
  }
}
