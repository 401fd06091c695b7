package org.ocelotl.spark;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.spark.sql.SparkSession;
import org.ocelotl.model.Metric;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.modelfile.ModelFiles;
import org.ocelotl.scan.ModelRequest;
import org.ocelotl.scan.ProducerSelection;
import org.ocelotl.scan.SliceGrid;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code model DATASET --metric M --slices N --out model.ocm}: the model of a trace's Parquet
 * dataset, written as the model files {@code ocelotl model} writes (binary .ocm, or CSV and its
 * tree) and {@code ocelotl aggregate}, {@code overview} read. The
 * options are those of {@code ocelotl model}, less what needs the local workspace (saved
 * selections, automatic depth).
 */
@Command(name = "model", mixinStandardHelpOptions = true,
    description = {"Build the microscopic model of a trace's Parquet dataset (ocelotl export --format parquet) on Spark",
        "and write it as 'ocelotl model' does: in the binary model format when FILE ends with .ocm (the tree inside),",
        "else as CSV (producer,slice,type,value, the producer tree with --tree-out), for 'ocelotl aggregate'."})
final class SparkModelCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(paramLabel = "DATASET", description = "The dataset's directory, on any file system Spark reads (file:, hdfs:, s3a:).")
  String dataset;

  @Option(names = "--metric", paramLabel = "METRIC", defaultValue = "state-duration",
      description = "What the cells measure: state-duration, state-average, event-count, variable-mean, "
          + "link-count, link-volume (default: ${DEFAULT-VALUE}).")
  String metric;

  @Option(names = "--slices", required = true, paramLabel = "N", description = "Number of time slices, 1 to 10000.")
  int slices;

  @Option(names = "--from", paramLabel = "T0", description = "Window start, in the trace's time unit (default: trace start).")
  Double from;

  @Option(names = "--to", paramLabel = "T1", description = "Window end, exclusive, in the trace's time unit (default: trace end).")
  Double to;

  @Option(names = "--producers", paramLabel = "NAME", split = ",",
      description = "Keep only these producers and their subtrees (names, or paths a/b/c where names repeat).")
  List<String> producers = new ArrayList<>();

  @Option(names = "--exclude", paramLabel = "NAME", split = ",", description = "Remove these producers and their subtrees.")
  List<String> exclude = new ArrayList<>();

  @Option(names = "--types", paramLabel = "NAME", split = ",",
      description = "Keep only these event types (type names, or a group such as a Pajé state type).")
  List<String> types = new ArrayList<>();

  @Option(names = "--depth", paramLabel = "D", defaultValue = "0",
      description = "Producers at this depth of the tree become the leaves, each summing its subtree (0: every level).")
  int depth;

  @Option(names = "--out", required = true, paramLabel = "FILE",
      description = "The model file, on the driver: FILE.ocm (binary), any other name CSV.")
  Path out;

  @Option(names = "--tree-out", paramLabel = "FILE", description = "Also write the producer tree CSV (producer,parent), on the driver.")
  Path treeOut;

  @Override
  public Integer call() throws IOException {
    ModelRequest request = new ModelRequest(Metric.parse(metric), from == null ? Double.NaN : from,
        to == null ? Double.NaN : to, slices, new ProducerSelection(producers, exclude, depth), types, true);
    SparkSession spark = SparkSession.builder().appName("ocelotl-spark model").getOrCreate();
    ModelJob.Result result = ModelJob.build(spark, dataset, request);
    MicroscopicModel model = result.model().model();
    ModelFiles.write(model, out);
    if (treeOut != null) {
      ModelFiles.writeTree(model, treeOut);
    }
    SliceGrid grid = result.model().grid();
    spec.commandLine().getErr().printf("%s: %s model, %d producers × %d slices × %d types, window [%s, %s) %s, "
            + "values in %s, exact, scanned in %d Spark partitions%n", result.metadata().name(), result.model().metric(),
        model.leaves(), grid.slices(), model.typeCount(), grid.start(), grid.end(), result.model().timeUnit(),
        result.model().unit(), result.partitions());
    spec.commandLine().getErr().flush();
    return 0;
  }

}
