package org.ocelotl.spark;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.spark.sql.SparkSession;
import org.ocelotl.analysis.AnalysisRequest;
import org.ocelotl.analysis.Param;
import org.ocelotl.analysis.RequestSpec;
import org.ocelotl.analysis.RequestValues;
import org.ocelotl.analysis.Requests;
import org.ocelotl.app.RequestOptions;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.modelfile.ModelFiles;
import org.ocelotl.scan.ModelBuilder;
import org.ocelotl.scan.ModelRequest;
import org.ocelotl.scan.SliceGrid;
import org.ocelotl.store.StoreMetadata;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code model DATASET --metric M --slices N --out model.ocm}: the model of a trace's Parquet
 * dataset, written as the model files {@code ocelotl model} writes (binary .ocm, or CSV and its
 * tree) and {@code ocelotl aggregate}, {@code overview} read. The
 * options are those of {@code ocelotl model} from the one request spec (decision 031), less what
 * needs the local workspace (saved selections) and approximate rebuilds (a dataset has no model cache).
 */
@Command(name = "model", mixinStandardHelpOptions = true,
    description = {"Build the microscopic model of a trace's Parquet dataset on Spark.",
        "The dataset is the one 'ocelotl export --format parquet' or 'ocelotl-spark import' writes; the "
        + "model is written as 'ocelotl model' does: in the binary model format when FILE ends with .ocm "
        + "(the tree inside), else as CSV (producer,slice,type,value, the producer tree with --tree-out), "
        + "for 'ocelotl aggregate'."})
final class SparkModelCommand implements Callable<Integer>, RequestOptions.Taking {
  @Spec CommandSpec spec;
  @Mixin SparkOptions sparkOptions = new SparkOptions();

  @Parameters(paramLabel = "DATASET", description = "The dataset's directory, on any file system Spark reads (file:, hdfs:, s3a:).")
  String dataset;

  @Option(names = "--out", required = true, paramLabel = "FILE",
      description = "The model file, on the driver: FILE.ocm (binary), any other name CSV.")
  Path out;

  @Option(names = "--tree-out", paramLabel = "FILE", description = "Also write the producer tree CSV (producer,parent), on the driver.")
  Path treeOut;

  @Override
  public List<Param> parameters() {
    return RequestSpec.DATASET_MODEL;
  }

  @Override
  public Integer call() throws IOException {
    RequestValues values = RequestOptions.values(spec, parameters());
    if (!values.given(RequestSpec.SLICES)) {
      throw new ParameterException(spec.commandLine(), "Missing required option: '--slices=N'");
    }
    SparkSession spark = SparkSessions.session("ocelotl-spark model", sparkOptions);
    StoreMetadata metadata = ModelJob.metadataOf(spark, dataset);
    // The automatic depth is the one the overview would choose for its default drawing height, as ocelotl model's.
    ModelRequest request = ModelBuilder.withDepthFor(metadata, Requests.model(values, metadata, null),
        AnalysisRequest.DEFAULT_ROWS);
    ModelJob.Result result = ModelJob.build(spark, dataset, request);
    MicroscopicModel model = result.model().model();
    ModelFiles.write(model, out);
    if (treeOut != null) {
      ModelFiles.writeTree(model, treeOut);
    }
    SliceGrid grid = result.model().grid();
    spec.commandLine().getErr().printf("%s: %s model, %d producers × %d slices × %d types, window [%s, %s) %s, "
            + "values in %s, exact, scanned in %d Spark partitions%n", result.metadata().name(),
        result.model().metricName(),
        model.leaves(), grid.slices(), model.typeCount(), grid.start(), grid.end(), result.model().timeUnit(),
        result.model().unit(), result.partitions());
    spec.commandLine().getErr().flush();
    return 0;
  }

}
