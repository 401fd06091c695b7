package org.ocelotl.app;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.List;
import org.ocelotl.analysis.AnalysisRequest;
import org.ocelotl.analysis.Param;
import org.ocelotl.analysis.RequestSpec;
import org.ocelotl.analysis.RequestValues;
import org.ocelotl.analysis.Requests;
import org.ocelotl.modelfile.ModelFiles;
import org.ocelotl.modelfile.ModelCsv;
import org.ocelotl.scan.BuiltModel;
import org.ocelotl.scan.ModelBuilder;
import org.ocelotl.scan.ModelCache;
import org.ocelotl.scan.ModelRequest;
import org.ocelotl.scan.SliceGrid;
import org.ocelotl.store.TraceStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ocelotl model TRACE --metric M --slices N --out model.csv}: the microscopic model of a
 * trace in the interchange format that {@code ocelotl aggregate} reads (docs/models.md), or in
 * the binary model format with {@code --out model.ocm} (decision 024).
 */
@Command(name = "model", mixinStandardHelpOptions = true,
    description = {"Build the microscopic model of a trace (producers × time slices × event types) and write it.",
        "As CSV: producer,slice,type,value (and the producer tree with --tree-out), for 'ocelotl "
        + "aggregate'; or, when FILE ends with .ocm, in the binary model format (the tree inside), read "
        + "many times faster."})
public final class ModelCommand implements Callable<Integer>, RequestOptions.Taking {
  @Spec CommandSpec spec;
  @Mixin TraceOptions options;

  @Parameters(paramLabel = "TRACE", description = "The trace file (imported on first use).")
  Path trace;

  @Option(names = "--out", required = true, paramLabel = "FILE", description = "Model file: FILE.ocm (binary), any other name CSV, or - for CSV on standard output.")
  String out;

  @Option(names = "--tree-out", paramLabel = "FILE", description = "Also write the producer tree CSV (producer,parent).")
  Path treeOut;

  @Override
  public List<Param> parameters() {
    return RequestSpec.MODEL;
  }

  @Override
  public Integer call() throws Exception {
    RequestValues values = RequestOptions.values(spec, parameters());
    if (!values.given(RequestSpec.SLICES)) {
      // A model file is read by tools that do not know this tool's default: its size is said.
      throw new ParameterException(spec.commandLine(), "Missing required option: '--slices=N'");
    }
    TraceStore store = options.open(trace, spec.commandLine().getErr());
    ModelRequest request = Requests.model(values, store, options.workspace());
    // The automatic depth is the one the overview would choose for its default drawing height.
    BuiltModel built;
    try (ProgressBar bar = options.progress(spec.commandLine().getErr())) {
      bar.stage("building the model");
      built = ModelCache.standard().build(store, ModelBuilder.withDepthFor(store, request, AnalysisRequest.DEFAULT_ROWS), bar);
    }
    if (out.equals("-")) {
      PrintWriter stdout = spec.commandLine().getOut();
      ModelCsv.write(built.model(), stdout);
      stdout.flush();
    } else {
      ModelFiles.write(built.model(), Path.of(out));
    }
    if (treeOut != null) {
      ModelFiles.writeTree(built.model(), treeOut);
    }
    PrintWriter err = spec.commandLine().getErr();
    err.println(summary(store, built));
    err.flush();
    return 0;
  }

  /** One line on stderr: what the model is (a state metric's with its time), and whether it is exact. */
  static String summary(TraceStore store, BuiltModel built) {
    SliceGrid grid = built.grid();
    return String.format("%s: %s model, %d producers × %d slices × %d types, window [%s, %s) %s, values in %s, %s",
        store.metadata().name(), built.metricName(), built.model().leaves(), grid.slices(), built.model().typeCount(),
        grid.start(), grid.end(), built.timeUnit(), built.unit(),
        built.exact() ? "exact" : "APPROXIMATE (rebuilt from a cached model with straddling slices; --exact rescans)");
  }

}
