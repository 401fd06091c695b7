package org.ocelotl.app;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.ocelotl.analysis.AnalysisResult;
import org.ocelotl.analysis.AnalysisService;
import org.ocelotl.analysis.CompareRequest;
import org.ocelotl.analysis.CompareResult;
import org.ocelotl.analysis.ModelInput;
import org.ocelotl.analysis.Param;
import org.ocelotl.analysis.RequestSpec;
import org.ocelotl.analysis.RequestValues;
import org.ocelotl.analysis.Requests;
import org.ocelotl.compare.Differences;
import org.ocelotl.export.OverviewInput;
import org.ocelotl.export.OverviewPicture;
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
 * {@code ocelotl compare BASE OTHER}: how OTHER departs from BASE (docs/aggregation.md, "Comparing
 * two runs"), through the analysis service: the difference overview, its picture, its JSON, and a
 * summary line with the largest differences.
 */
@Command(name = "compare", mixinStandardHelpOptions = true,
    description = {"Compare two runs: where and when OTHER departs from BASE.",
        "Both are cut into the same model (producers matched by path, types by name); the overview shows "
        + "how OTHER departs from BASE (colour: the type that gained most), and the differences are ranked."})
public final class CompareCommand implements Callable<Integer>, RequestOptions.Taking {

  @Spec CommandSpec spec;
  @Mixin TraceOptions traceOptions;

  @Parameters(index = "0", paramLabel = "BASE", description = "The reference run's trace (imported on first use).")
  Path base;

  @Parameters(index = "1", paramLabel = "OTHER", description = "The run compared with it.")
  Path other;

  @Option(names = "--out", paramLabel = "FILE", description = "Draw the difference overview: FILE.svg or FILE.png.")
  Path out;

  @Option(names = "--json", paramLabel = "FILE", description = "Write the answer as JSON (- for standard output): "
      + "the difference overview's analysis result, 'compare' and 'differences' (docs/analysis.md).")
  Path json;

  @Override
  public List<Param> parameters() {
    return RequestSpec.COMPARE;
  }

  @Override
  public Integer call() throws IOException {
    RequestValues values = RequestOptions.values(spec, parameters());
    PrintWriter err = spec.commandLine().getErr();
    TraceStore baseStore = traceOptions.open(base, err);
    TraceStore otherStore = traceOptions.open(other, err);
    CompareRequest request = Requests.compare(values, baseStore, otherStore);
    CompareResult result;
    try (ProgressBar bar = traceOptions.progress(err)) {
      result = AnalysisService.standard().compare(request, bar);
    }
    int width = values.integer(RequestSpec.WIDTH);
    if (out != null) {
      int height = values.given(RequestSpec.HEIGHT) ? values.integer(RequestSpec.HEIGHT)
          : OverviewCommand.autoHeight(result.difference().model().leaves());
      OverviewPicture.writeShaded(OverviewInput.of(result), result.difference().model(), CompareResult.OPACITY_NOTE, out,
          width, height);
    }
    if (json != null) {
      FileOption.write(json, result.json(), spec);
    }
    PrintWriter stdout = FileOption.summary(spec, json);
    stdout.print(summary(result));
    stdout.flush();
    return 0;
  }

  /** Each run's duration, the overall departure, the largest differences. */
  static String summary(CompareResult r) {
    AnalysisResult o = r.overview();
    BuiltModel built = o.analysis().built();
    TimeScale scale = o.timeScale();
    StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
        "BASE %s: %.6g %s, OTHER %s: %.6g %s (align %s); OTHER departs by %.3g%% over %d parts (p = %.6g)",
        r.base().name(), r.baseDuration(), r.base().unit(), r.other().name(), r.otherDuration(), r.other().unit(),
        r.request().align().word(), 100 * r.departure(), o.partition().size(), o.p()));
    // Three in all: the site behind a link, where there is one, is the first of the three.
    int states = CompareResult.SUMMARISED - (r.site() != null ? 1 : 0);
    List<Differences.Change> first = r.changes().subList(0, Math.min(states, r.changes().size()));
    line.append(first.isEmpty() && r.site() == null ? "; no difference" : "; largest differences:");
    int rank = 1;
    if (r.site() != null) {
      // First for who it names, not for its score, which is the links' comparison's (decision 060).
      BuiltModel links = r.links().overview().analysis().built();
      Differences.Change c = r.site().change();
      line.append(String.format(Locale.ROOT, " %d. %s [%.6g, %.6g) %s: behind %s, whose use departs first (%s of %s; "
          + "score %.4g);", rank, built.model().tree().label(r.site().node()), scale.at(links.grid().boundary(c.first())),
          scale.at(links.grid().boundary(c.last() + 1)), scale.unit(), r.site().link(), links.metric().cliName(),
          String.join(", ", AnalysisService.LINKS), c.score()));
      rank++;
    }
    for (Differences.Change c : first) {
      line.append(String.format(Locale.ROOT, " %d. %s [%.6g, %.6g) %s: %s %.1f%% → %.1f%% (score %.4g)%s", rank,
          built.model().tree().label(c.node()), scale.at(built.grid().boundary(c.first())),
          scale.at(built.grid().boundary(c.last() + 1)), scale.unit(), r.difference().types().get(c.type()),
          100 * c.baseShare(), 100 * c.otherShare(), c.score(), c != first.get(first.size() - 1) ? ";" : ""));
      rank++;
    }
    if (r.links() != null) {
      // One type, so no shares: where and how much the links' use departs.
      BuiltModel links = r.links().overview().analysis().built();
      List<Differences.Change> byLinks = r.links().changes().subList(0, Math.min(CompareResult.SUMMARISED, r.links().changes().size()));
      line.append("; the states' first is every producer's (when, not who); by the links' use (utilization of "
          + "bandwidth):");
      line.append(byLinks.isEmpty() ? " no difference" : "");
      rank = 1;
      for (Differences.Change c : byLinks) {
        line.append(String.format(Locale.ROOT, " %d. %s [%.6g, %.6g) %s (score %.4g)%s", rank,
            links.model().tree().label(c.node()), scale.at(links.grid().boundary(c.first())),
            scale.at(links.grid().boundary(c.last() + 1)), scale.unit(), c.score(), rank < byLinks.size() ? ";" : ""));
        rank++;
      }
    }
    if (!r.difference().onlyInBase().isEmpty() || !r.difference().onlyInOther().isEmpty()) {
      line.append(String.format(Locale.ROOT, "; not compared: %d producers of BASE only %s, %d of OTHER only %s",
          r.difference().onlyInBase().size(), few(r.difference().onlyInBase()), r.difference().onlyInOther().size(),
          few(r.difference().onlyInOther())));
    }
    return line.append('\n').toString();
  }

  private static String few(List<String> paths) {
    return paths.size() <= 3 ? paths.toString() : "[" + String.join(", ", paths.subList(0, 3)) + ", …]";
  }
}
