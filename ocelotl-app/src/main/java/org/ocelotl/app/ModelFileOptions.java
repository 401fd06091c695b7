package org.ocelotl.app;

import java.nio.file.Path;
import java.util.List;
import org.ocelotl.analysis.ModelInput;
import org.ocelotl.analysis.RequestSpec;
import org.ocelotl.analysis.RequestValues;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * {@code --model} and {@code --tree}: a model file built elsewhere ({@code ocelotl model}, {@code
 * ocelotl-spark model}) read instead of a TRACE, with the same checks in every command that takes
 * either ({@code overview}, {@code view}).
 */
public final class ModelFileOptions {
  /** Options that choose how a trace's model is built or imported: meaningless for a model already built. */
  private static final List<String> BUILD_OPTIONS = List.of("--metric", "--producers", "--types",
      "--selection", "--exclude", "--exclude-kinds", "--exclude-types", "--depth", "--approximate", "--format", "--lenient", "--states");

  @Option(names = "--model", paramLabel = "M.csv",
      description = "Instead of TRACE: a model file as 'ocelotl model' writes it (CSV producer,slice,type,value, or binary .ocm); "
          + "its time axis is the slice number, so --from/--to, where the command takes them, are slice numbers.")
  Path model;

  @Option(names = "--tree", paramLabel = "T.csv",
      description = "With --model: its tree file (producer,parent). Default: the model's producers under one root.")
  Path tree;

  /**
   * The model files of a request, or null when the command was given a trace instead: --slices
   * (default: the file's own), and --from and --to read as slice numbers only with a model file
   * (with a trace they are times, which {@code Requests} reads).
   */
  ModelInput.FromFiles files(CommandSpec spec, boolean traceGiven, RequestValues values) {
    if (model == null) {
      return files(spec, traceGiven, null, Double.NaN, Double.NaN);
    }
    return files(spec, traceGiven, values.given(RequestSpec.SLICES) ? values.integer(RequestSpec.SLICES) : null,
        values.number(RequestSpec.FROM), values.number(RequestSpec.TO));
  }

  /**
   * The model files, or null when the command was given a trace instead.
   *
   * @param traceGiven whether the command line names a TRACE
   * @param slices     the model's slice count (--slices), null for the file's own
   * @param from       the window's first slice (--from), NaN for slice 0
   * @param to         the window's end, exclusive (--to), NaN for the model's end
   * @throws IllegalArgumentException for a TRACE and --model both or neither, a tree without a
   *     model, an option that builds a trace's model beside --model, or fewer than one slice
   */
  ModelInput.FromFiles files(CommandSpec spec, boolean traceGiven, Integer slices, double from, double to) {
    if (traceGiven == (model != null)) {
      throw new IllegalArgumentException(spec.name() + " takes a TRACE or --model FILE (one of the two)");
    }
    if (model == null) {
      if (tree != null) {
        throw new IllegalArgumentException("--tree goes with --model");
      }
      return null;
    }
    for (String option : BUILD_OPTIONS) {
      if (spec.commandLine().getParseResult().hasMatchedOption(option)) {
        throw new IllegalArgumentException(option + " chooses how a trace's model is built; it has no meaning with --model");
      }
    }
    if (slices != null && slices < 1) {
      throw new IllegalArgumentException("--slices must be ≥ 1, got " + slices);
    }
    // The window is checked against the model once it is read (AnalysisService), as the API's is.
    return new ModelInput.FromFiles(model, tree, slices == null ? 0 : slices, from, to);
  }
}
