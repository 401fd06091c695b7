package org.ocelotl.app;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.ocelotl.aggregation.Outlier;
import org.ocelotl.analysis.AnalysisService;
import org.ocelotl.analysis.ModelInput;
import org.ocelotl.analysis.OutliersRequest;
import org.ocelotl.analysis.OutliersResult;
import org.ocelotl.analysis.Param;
import org.ocelotl.analysis.RequestSpec;
import org.ocelotl.analysis.RequestValues;
import org.ocelotl.analysis.Requests;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.scan.BuiltModel;
import org.ocelotl.store.TraceStore;
import org.ocelotl.view.TimeScale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ocelotl outliers TRACE}: what the partition of the overview hides, the cells that deviate
 * most from the aggregate that merges them (docs/aggregation.md), through the same analysis
 * service as {@code overview}.
 */
@Command(name = "outliers", mixinStandardHelpOptions = true,
    description = {"List what the overview's aggregates hide: who departs (producer cells), then when (stretches "
        + "of every producer of a part), each the largest first.",
        "Each is a producer (or subtree) over a stretch of time that deviates from the part merging it, "
        + "ranked by the information the part loses on it.",
        "With --model instead of TRACE: the same for a model file."})
public final class OutliersCommand implements Callable<Integer>, RequestOptions.Taking {
  @Spec CommandSpec spec;
  @Mixin TraceOptions traceOptions;
  @Mixin ModelFileOptions modelFile;

  @Parameters(paramLabel = "TRACE", arity = "0..1", description = "The trace file (imported on first use).")
  java.nio.file.Path trace;

  @Option(names = "--json", description = "Print the analysis service's JSON form (key 'outliers': who, then when).")
  boolean json;

  @Override
  public List<Param> parameters() {
    return RequestSpec.OUTLIERS_COMMAND;
  }

  @Override
  public Integer call() throws IOException {
    RequestValues values = RequestOptions.values(spec, parameters());
    OutliersRequest request = Requests.outliers(values, input(values));
    OutliersResult result;
    try (ProgressBar bar = traceOptions.progress(spec.commandLine().getErr())) {
      result = AnalysisService.standard().outliers(request, bar);
    }
    PrintWriter out = spec.commandLine().getOut();
    out.print(json ? new String(result.json(), StandardCharsets.UTF_8) + "\n" : table(result));
    out.flush();
    return 0;
  }

  /** The trace's model as the options ask for it, or the model files (as {@code overview} reads them). */
  private ModelInput input(RequestValues values) throws IOException {
    ModelInput.FromFiles files = modelFile.files(spec, trace != null, values);
    if (files != null) {
      return files;
    }
    TraceStore store = traceOptions.open(trace, spec.commandLine().getErr());
    return new ModelInput.FromTrace(store, Requests.model(values, store, traceOptions.workspace()));
  }

  /** Which are listed: who first, then when (decision 061). */
  private static String shown(OutliersResult r) {
    int who = r.whoListed();
    int when = r.listed().size() - who;
    String link = r.byLink() == null ? "" : r.shown().built().model().tree().label(r.byLink().site()) + " by "
        + r.byLink().link() + "'s use, then ";
    return link + (r.outliers().size() > r.listed().size() ? "the first " : "") + who + " who" + (when == 0 ? ""
        : ", then " + when + " when");
  }

  /** One line of summary, then one row per listed cell: times since the start, as the overview's axis reads. */
  private static String table(OutliersResult r) {
    BuiltModel built = r.shown().built();
    MicroscopicModel model = built.model();
    TimeScale scale = r.shown().timeScale();
    StringBuilder text = new StringBuilder(String.format(Locale.ROOT,
        "%s: p = %.6g, %d parts hide %d deviating cells, %d worth telling apart at this p%s%n", r.shown().name(),
        r.shown().p(), r.shown().partition().size(), r.outliers().size(), r.hidden(),
        r.outliers().isEmpty() ? "" : "; " + shown(r) + ":"));
    if (r.outliers().isEmpty()) {
      return text.toString();
    }
    text.append(String.format(Locale.ROOT, "%4s  %-4s  %-40s %12s %12s %12s %10s  %s%n", "rank", "kind", "producer",
        "start (" + scale.unit() + ")", "end", "score", "worth <p", "type: share in cell / in part"));
    int rank = 1;
    OutliersResult.ByLink byLink = r.byLink();
    if (byLink != null) {
      Outlier o = byLink.cell();
      text.append(String.format(Locale.ROOT, "%4d  %-4s  %-40s %12.6g %12.6g %12.6g %10.4g  by %s's use: %.3g%% / %.3g%% "
          + "(the other links)%n", rank++, "who", model.tree().label(byLink.site()), scale.at(built.grid().boundary(o.first())),
          scale.at(built.grid().boundary(o.last() + 1)), o.score(), o.worthUpTo(), byLink.link(), 100 * byLink.use(),
          100 * byLink.othersUse()));
    }
    for (Outlier o : r.listed()) {
      text.append(String.format(Locale.ROOT, "%4d  %-4s  %-40s %12.6g %12.6g %12.6g %10.4g  %s: %.1f%% / %.1f%%%n",
          rank++, OutliersResult.kind(o, r.shown().partition()), model.tree().label(o.node()),
          scale.at(built.grid().boundary(o.first())),
          scale.at(built.grid().boundary(o.last() + 1)), o.score(), o.worthUpTo(), model.types().get(o.type()),
          100 * o.cellShare(), 100 * o.partShare()));
    }
    return text.toString();
  }
}
