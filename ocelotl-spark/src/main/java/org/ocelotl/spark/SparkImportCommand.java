package org.ocelotl.spark;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import org.ocelotl.store.StoreMetadata;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code import TRACE --out DATASET}: an OTF2 archive decoded on Spark, one task per location, or a
 * Pajé trace read by byte ranges, written as a Parquet dataset.
 */
@Command(name = "import", mixinStandardHelpOptions = true,
    description = {"Import a Pajé trace or an OTF2 archive on Spark into a Parquet dataset.",
        "An OTF2 archive is read one task per location's event file, a Pajé trace split by byte ranges "
        + "(gzip'd: one task); the dataset is the one 'ocelotl export --format parquet' writes, for "
        + "'ocelotl-spark model'."})
final class SparkImportCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin SparkOptions sparkOptions = new SparkOptions();

  @Parameters(paramLabel = "TRACE", description = {"The Pajé file or the OTF2 anchor file NAME.otf2 (its NAME.def and NAME/",
      "beside it), on any file system Spark reads (file:, hdfs:, s3a:; a path without a scheme is on the",
      "default one; a local path must be the same on the driver and every executor)."})
  String trace;

  @Option(names = "--range-bytes", paramLabel = "BYTES",
      description = {"Bytes of a Pajé trace per task of its passes (default: ranges of at most 128 MiB, as many as a",
          "multiple of the cores, equal in size)."})
  Long rangeBytes;

  @Option(names = "--out", required = true, paramLabel = "DATASET",
      description = "The dataset's directory, on any file system Spark writes (file:, hdfs:, s3a:).")
  String out;

  @Option(names = "--force", description = "Replace DATASET if it exists.")
  boolean force;

  @Override
  public Integer call() throws IOException {
    if (rangeBytes != null && rangeBytes < 1) {
      throw new IllegalArgumentException("--range-bytes " + rangeBytes + ": expected at least 1");
    }
    PrintWriter err = spec.commandLine().getErr();
    // The session first: its Hadoop configuration says which file systems the paths are on.
    SparkSession spark = SparkSessions.session("ocelotl-spark import", sparkOptions);
    Configuration hadoop = spark.sparkContext().hadoopConfiguration();
    Path file = HadoopFiles.qualified(trace, hadoop);
    Path dataset = HadoopFiles.qualified(out, hadoop);
    HadoopFiles.file(file, hadoop);
    boolean otf2 = ImportJob.isOtf2(file, hadoop);
    if (!otf2 && !PajeImportJob.isPaje(file, hadoop)) {
      throw new IllegalArgumentException(trace + ": neither an OTF2 anchor file (NAME.otf2) nor a Pajé trace; this "
          + "import reads those two");
    }
    if (!otf2 && PajeImportJob.isGzip(file, hadoop)) {
      err.println("ocelotl-spark: warning: " + trace + " is gzip'd, which cannot be split: one task reads it whole "
          + "(decompress it to read it in parallel)");
      err.flush();
    }
    ImportJob.Result result = otf2 ? ImportJob.run(spark, file, dataset, force)
        : PajeImportJob.run(spark, file, dataset, force, rangeBytes == null ? 0 : rangeBytes);
    StoreMetadata m = result.metadata();
    err.printf("%s: %d producers, %d types, [%s, %s) %s, %s in %d Spark tasks → %s%n", m.name(), m.producers().size(),
        m.types().size(), m.start(), m.end(), m.timeUnit(), otf2 ? "decoded" : "read", result.tasks(), out);
    err.flush();
    return 0;
  }
}
