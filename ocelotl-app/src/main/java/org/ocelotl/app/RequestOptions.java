package org.ocelotl.app;

import java.util.List;
import org.ocelotl.analysis.Param;
import org.ocelotl.analysis.RequestValues;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * The command line's side of the request spec (decision 031): a command that takes a request
 * declares its parameters ({@link Taking}); {@link Main} (and ocelotl-spark's main) adds one picocli option per parameter,
 * with the spec's flags, placeholder and doc, and the command reads them back as {@link
 * RequestValues}, checked by the same reading as the server's.
 */
public final class RequestOptions {
  private RequestOptions() {}

  /** A command whose options are the parameters of a request. */
  public interface Taking {
    /** The request's parameters, with this command's defaults. */
    List<Param> parameters();
  }

  /** Adds the options of every command of {@code commandLine} that takes a request. */
  /**
   * A value picocli refuses for its option's type ({@code --slices abc} where the option is an
   * int) answers as the request spec's refusal of the same text does: one line {@code PROGRAM:
   * --OPTION: expected …, found '…'}, status 1, bad input (decision 049). Every other parse error —
   * the command line's shape — stays picocli's usage error, status 2.
   */
  public static void refuseValuesAsBadInput(CommandLine commandLine, String program) {
    CommandLine.IParameterExceptionHandler usage = commandLine.getParameterExceptionHandler();
    commandLine.setParameterExceptionHandler((e, given) -> {
      // Picocli passes the converter's exception as the cause, and only for a value it could not convert.
      if (e.getCause() == null || e.getArgSpec() == null || e.getValue() == null) {
        return usage.handleParseException(e, given);
      }
      CommandLine.Model.ArgSpec arg = e.getArgSpec();
      Class<?> type = arg.type();
      String expected = type == int.class || type == Integer.class || type == long.class || type == Long.class
          ? "an integer" : type == double.class || type == Double.class ? "a number" : "a " + type.getSimpleName();
      String name = arg instanceof OptionSpec option ? option.longestName() : arg.paramLabel();
      e.getCommandLine().getErr().println(program + ": " + name + ": expected " + expected + ", found '"
          + e.getValue() + "'");
      e.getCommandLine().getErr().flush();
      return 1;
    });
  }

  public static void declare(CommandLine commandLine) {
    if (commandLine.getCommand() instanceof Taking taking) {
      for (Param p : taking.parameters()) {
        if (p.flag() != null) {
          commandLine.getCommandSpec().addOption(option(p));
        }
      }
    }
    commandLine.getSubcommands().values().forEach(RequestOptions::declare);
  }

  /** The picocli option of a parameter: its text is read by {@link RequestValues}, not by picocli. */
  static OptionSpec option(Param p) {
    OptionSpec.Builder option = OptionSpec.builder(p.flags().toArray(String[]::new)).description(help(p));
    if (p.switchTo() != null) {
      return option.arity("0").type(boolean.class).build();
    }
    option.paramLabel(p.label());
    if (p.type() == Param.Type.LIST) {
      return option.type(List.class).auxiliaryTypes(String.class).splitRegex(",").build();
    }
    return option.type(String.class).build();
  }

  /** The help line: the doc, the range and the default. */
  static String help(Param p) {
    StringBuilder help = new StringBuilder(p.doc());
    if (p.switchTo() == null && !p.range().isEmpty() && p.type() != Param.Type.NUMBER) {
      help.append(" ").append(p.range().substring(0, 1).toUpperCase(java.util.Locale.ROOT))
          .append(p.range().substring(1)).append('.');
    }
    if (p.fallback() != null && p.switchTo() == null) {
      help.append(" Default: ").append(p.fallback()).append('.');
    }
    return help.toString().replace("%", "%%");
  }

  /** The values the command line of {@code spec} gives to {@code params}. */
  public static RequestValues values(CommandSpec spec, List<Param> params) {
    ParseResult parsed = spec.commandLine().getParseResult();
    return new RequestValues(new RequestValues.Source() {
      @Override
      public String value(Param p) {
        OptionSpec option = p.flag() == null ? null : parsed.matchedOption(p.flag());
        if (option == null) {
          return null;
        }
        return p.switchTo() != null ? p.switchTo() : option.getValue();
      }

      @Override
      public List<String> items(Param p) {
        OptionSpec option = p.flag() == null ? null : parsed.matchedOption(p.flag());
        return option == null ? List.of() : List.copyOf(option.<List<String>>getValue());
      }

      @Override
      public String spelling(Param p) {
        return p.flag() != null ? p.flag() : p.name();
      }
    }, params);
  }
}
