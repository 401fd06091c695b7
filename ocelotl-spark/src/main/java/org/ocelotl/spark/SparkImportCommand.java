package org.ocelotl.spark;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.apache.spark.sql.SparkSession;
import org.ocelotl.store.StoreMetadata;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code import TRACE --out DATASET}: an OTF2 archive decoded on Spark, one task per location, as a Parquet dataset. */
@Command(name = "import", mixinStandardHelpOptions = true,
    description = {"Import an OTF2 archive on Spark (one task per location's event file) and write its Parquet dataset,",
        "the one 'ocelotl export --format parquet' writes, for 'ocelotl-spark model'."})
final class SparkImportCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(paramLabel = "TRACE", description = "The OTF2 anchor file NAME.otf2, at a path every executor reads.")
  Path trace;

  @Option(names = "--out", required = true, paramLabel = "DATASET", description = "The dataset's directory (on the driver).")
  Path out;

  @Option(names = "--force", description = "Replace DATASET if it exists.")
  boolean force;

  @Override
  public Integer call() throws IOException {
    SparkSession spark = SparkSession.builder().appName("ocelotl-spark import").getOrCreate();
    ImportJob.Result result = ImportJob.run(spark, trace, out, force);
    StoreMetadata m = result.metadata();
    spec.commandLine().getErr().printf("%s: %d producers, %d types, [%s, %s) %s, decoded in %d Spark tasks → %s%n",
        m.name(), m.producers().size(), m.types().size(), m.start(), m.end(), m.timeUnit(), result.tasks(), out);
    spec.commandLine().getErr().flush();
    return 0;
  }
}
