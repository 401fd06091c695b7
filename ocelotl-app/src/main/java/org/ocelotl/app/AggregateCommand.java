package org.ocelotl.app;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.ocelotl.aggregation.Aggregation;
import org.ocelotl.aggregation.Breakpoint;
import org.ocelotl.aggregation.Part;
import org.ocelotl.aggregation.Partition;
import org.ocelotl.analysis.AnalysisRequest;
import org.ocelotl.analysis.AnalysisResult;
import org.ocelotl.analysis.AnalysisService;
import org.ocelotl.analysis.ModelInput;
import org.ocelotl.model.ProducerTree;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ocelotl aggregate}: the breakpoints of a model file, or its partition for one p. */
@Command(
    name = "aggregate",
    mixinStandardHelpOptions = true,
    description = {"Aggregate a microscopic model file and print its breakpoints, or its partitions on request.",
        "The model is a CSV file (producer,slice,type,value; an optional tree producer,parent) or a "
        + "binary .ocm model, which carries its tree.",
        "Without --p: every distinct optimal partition (its lowest p, gain, loss and size), and the "
        + "default p.",
        "With --p: the optimal partition for that p. --partitions lists each partition's parts too."})
public final class AggregateCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin ProgressOption progress;

  @Option(names = "--model", required = true, paramLabel = "M.csv",
      description = "Model file: CSV producer,slice,type,value, or the binary M.ocm of 'ocelotl model' (told apart by content).")
  Path model;

  @Option(names = "--tree", paramLabel = "T.csv",
      description = "Tree file: producer,parent (root: empty parent). Default: the model's producers under one root.")
  Path tree;

  @Option(names = "--slices", paramLabel = "N", description = "Number of slices (default: highest slice in the model + 1).")
  int slices;

  @Option(names = "--from", paramLabel = "A", description = "The window's first slice (default: 0).")
  Double from;

  @Option(names = "--to", paramLabel = "B", description = "The window's end, exclusive: slices [A, B) alone (default: the model's end).")
  Double to;

  @Option(names = "--mode", required = true, paramLabel = "MODE",
      description = "temporal, spatial or spatiotemporal.")
  String mode;

  @Option(names = "--p", paramLabel = "P", description = "Trade-off in [0, 1]: print only the partition for it.")
  Double p;

  @Option(names = "--partitions",
      description = "List each partition's parts too (one line per breakpoint: long on a large model).")
  boolean partitions;

  @Option(names = "--json", description = "Print the analysis service's JSON form (docs/analysis.md) instead of a table.")
  boolean json;

  /** Refusals reach {@link Main#failure}: exit status 1, like every command's bad input. */
  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    Aggregation aggregation = aggregation();
    if (slices < 0) {
      throw new IllegalArgumentException("--slices must be ≥ 1, got " + slices);
    }
    if (p != null && !(p >= 0 && p <= 1)) {
      throw new IllegalArgumentException("--p must be in [0, 1], got " + p);
    }
    ModelInput.FromFiles files = new ModelInput.FromFiles(model, tree, slices, from == null ? Double.NaN : from,
        to == null ? Double.NaN : to);
    AnalysisRequest request = new AnalysisRequest(files, aggregation, null, p == null ? Double.NaN : p,
        AnalysisRequest.DEFAULT_HEIGHT);
    AnalysisResult result;
    try (ProgressBar bar = progress.bar(spec.commandLine().getErr())) {
      result = AnalysisService.standard().answer(request, bar);
    }
    if (json) {
      out.print(new String(result.json(), StandardCharsets.UTF_8));
      out.print('\n');
    } else if (p != null) {
      out.print(table(aggregation, List.of(new Breakpoint(p, result.partition())), result, partitions));
    } else {
      out.print(table(aggregation, result.analysis().breakpoints(), result, partitions)
          + "default p: " + result.analysis().defaultP() + "\n");
    }
    out.flush();
    return 0;
  }

  private Aggregation aggregation() {
    try {
      return Aggregation.valueOf(mode.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--mode must be temporal, spatial or spatiotemporal, got \"" + mode + "\"");
    }
  }

  /**
   * One row per breakpoint: p, gain, loss, parts, and with {@code parts} the partition, its parts
   * named by the model file's own slice numbers (in a window too).
   */
  private static String table(Aggregation aggregation, List<Breakpoint> breakpoints, AnalysisResult result,
      boolean parts) {
    ProducerTree tree = result.analysis().built().model().tree();
    int first = (int) result.analysis().built().grid().start();
    StringBuilder text = new StringBuilder(parts
        ? String.format("%-22s %-22s %-22s %6s  %s%n", "p", "gain", "loss", "parts", "partition")
        : String.format("%-22s %-22s %-22s %6s%n", "p", "gain", "loss", "parts"));
    for (Breakpoint breakpoint : breakpoints) {
      Partition partition = breakpoint.partition();
      text.append(String.format("%-22s %-22s %-22s %6d", breakpoint.p(), partition.gain(), partition.loss(),
          partition.size()));
      if (!parts) {
        text.append('\n');
        continue;
      }
      text.append("  ");
      for (Part part : partition.parts()) {
        if (aggregation != Aggregation.TEMPORAL) {
          text.append(tree.name(part.node()));
        }
        text.append('[').append(first + part.first());
        if (part.last() > part.first()) {
          text.append('-').append(first + part.last());
        }
        text.append("] ");
      }
      text.setLength(text.length() - 1);
      text.append('\n');
    }
    return text.toString();
  }
}
