package org.ocelotl.app;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.ocelotl.aggregation.Aggregation;
import org.ocelotl.aggregation.Breakpoint;
import org.ocelotl.aggregation.Part;
import org.ocelotl.aggregation.Partition;
import org.ocelotl.aggregation.Qualities;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.model.ModelCsv;
import org.ocelotl.model.ProducerTree;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ocelotl aggregate}: the breakpoints of a model file, or its partition for one p. */
@Command(
    name = "aggregate",
    mixinStandardHelpOptions = true,
    description = {
      "Aggregates a microscopic model file (CSV producer,slice,type,value; optional tree producer,parent).",
      "Without --p: every distinct optimal partition with the lowest p where it is optimal, and the default p.",
      "With --p: the optimal partition for that p."
    })
public final class AggregateCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--model", required = true, paramLabel = "M.csv", description = "Model file: producer,slice,type,value.")
  Path model;

  @Option(names = "--tree", paramLabel = "T.csv",
      description = "Tree file: producer,parent (root: empty parent). Default: the model's producers under one root.")
  Path tree;

  @Option(names = "--slices", paramLabel = "N", description = "Number of slices (default: highest slice in the model + 1).")
  int slices;

  @Option(names = "--mode", required = true, paramLabel = "MODE",
      description = "temporal, spatial or spatiotemporal.")
  String mode;

  @Option(names = "--p", paramLabel = "P", description = "Trade-off in [0, 1]: print only the partition for it.")
  Double p;

  @Option(names = "--json", description = "Print JSON (see docs/aggregation.md) instead of a table.")
  boolean json;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    try {
      Aggregation aggregation = aggregation();
      if (slices < 0) {
        throw new IllegalArgumentException("--slices must be ≥ 1, got " + slices);
      }
      if (p != null && !(p >= 0 && p <= 1)) {
        throw new IllegalArgumentException("--p must be in [0, 1], got " + p);
      }
      MicroscopicModel microscopic = ModelCsv.read(model, tree, slices);
      Qualities qualities = Qualities.of(microscopic, aggregation);
      ProducerTree producers = microscopic.tree();
      if (p != null) {
        Partition partition = qualities.best(p);
        out.print(json ? jsonPartition(aggregation, p, partition, producers) : table(aggregation, List.of(new Breakpoint(p, partition)), producers));
      } else {
        List<Breakpoint> breakpoints = qualities.breakpoints();
        double defaultP = Breakpoint.defaultP(breakpoints);
        out.print(json ? jsonBreakpoints(aggregation, breakpoints, defaultP, producers)
            : table(aggregation, breakpoints, producers) + "default p: " + number(defaultP) + "\n");
      }
      out.flush();
      return 0;
    } catch (IOException | IllegalArgumentException e) {
      spec.commandLine().getErr().println("ocelotl aggregate: " + reason(e));
      spec.commandLine().getErr().flush();
      return 2;
    }
  }

  private static String reason(Exception e) {
    if (e instanceof NoSuchFileException missing) {
      return "no such file: " + missing.getFile();
    }
    if (e instanceof FileSystemException other) {
      return "cannot read " + other.getFile() + " (" + other.getClass().getSimpleName() + ")";
    }
    return e.getMessage();
  }

  private Aggregation aggregation() {
    try {
      return Aggregation.valueOf(mode.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--mode must be temporal, spatial or spatiotemporal, got \"" + mode + "\"");
    }
  }

  private static String table(Aggregation aggregation, List<Breakpoint> breakpoints, ProducerTree tree) {
    StringBuilder text = new StringBuilder(String.format("%-22s %-22s %-22s %6s  %s%n", "p", "gain", "loss", "parts", "partition"));
    for (Breakpoint breakpoint : breakpoints) {
      Partition partition = breakpoint.partition();
      text.append(String.format("%-22s %-22s %-22s %6d  ", number(breakpoint.p()), number(partition.gain()),
          number(partition.loss()), partition.size()));
      for (Part part : partition.parts()) {
        if (aggregation != Aggregation.TEMPORAL) {
          text.append(tree.name(part.node()));
        }
        text.append('[').append(part.first());
        if (part.last() > part.first()) {
          text.append('-').append(part.last());
        }
        text.append("] ");
      }
      text.setLength(text.length() - 1);
      text.append('\n');
    }
    return text.toString();
  }

  private static String jsonBreakpoints(Aggregation aggregation, List<Breakpoint> breakpoints, double defaultP, ProducerTree tree) {
    StringBuilder text = new StringBuilder("{\"mode\":\"").append(aggregation.name().toLowerCase(Locale.ROOT)).append("\",\"breakpoints\":[");
    for (int k = 0; k < breakpoints.size(); k++) {
      text.append(k > 0 ? "," : "");
      entry(text, aggregation, breakpoints.get(k).p(), breakpoints.get(k).partition(), tree);
    }
    return text.append("],\"defaultP\":").append(number(defaultP)).append("}\n").toString();
  }

  /** With --p: the breakpoint entry's fields at top level, p being the requested one. */
  private static String jsonPartition(Aggregation aggregation, double p, Partition partition, ProducerTree tree) {
    StringBuilder text = new StringBuilder("{\"mode\":\"").append(aggregation.name().toLowerCase(Locale.ROOT)).append("\",");
    fields(text, aggregation, p, partition, tree);
    return text.append("}\n").toString();
  }

  private static void entry(StringBuilder text, Aggregation aggregation, double p, Partition partition, ProducerTree tree) {
    text.append('{');
    fields(text, aggregation, p, partition, tree);
    text.append('}');
  }

  private static void fields(StringBuilder text, Aggregation aggregation, double p, Partition partition, ProducerTree tree) {
    text.append("\"p\":").append(number(p)).append(",\"gain\":").append(number(partition.gain()))
        .append(",\"loss\":").append(number(partition.loss())).append(",\"parts\":[");
    for (int k = 0; k < partition.size(); k++) {
      Part part = partition.parts().get(k);
      text.append(k > 0 ? ",{" : "{");
      if (aggregation != Aggregation.TEMPORAL) {
        text.append("\"producer\":").append(string(tree.name(part.node()))).append(',');
      }
      text.append("\"start\":").append(part.first()).append(",\"end\":").append(part.last()).append('}');
    }
    text.append(']');
  }

  /** Shortest text that reads back as the same double; never NaN or infinite here. */
  private static String number(double value) {
    return Double.toString(value);
  }

  private static String string(String value) {
    StringBuilder text = new StringBuilder("\"");
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '"' -> text.append("\\\"");
        case '\\' -> text.append("\\\\");
        case '\n' -> text.append("\\n");
        case '\r' -> text.append("\\r");
        case '\t' -> text.append("\\t");
        default -> {
          if (c < 0x20) {
            text.append(String.format("\\u%04x", (int) c));
          } else {
            text.append(c);
          }
        }
      }
    }
    return text.append('"').toString();
  }
}
