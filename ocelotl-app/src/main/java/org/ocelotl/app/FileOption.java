package org.ocelotl.app;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import org.ocelotl.io.AtomicFile;
import picocli.CommandLine.Model.CommandSpec;

/**
 * A file option of a command ({@code --json FILE}, {@code --csv FILE}): "-" is standard output,
 * as Unix tools spell it. Standard output then carries that file alone, so that it can be piped
 * to a JSON reader: the command's one-line summary goes to standard error instead.
 */
final class FileOption {
  private FileOption() {}

  /** Writes the bytes to the file (atomically), or to standard output for "-". */
  static void write(Path file, byte[] bytes, CommandSpec spec) throws IOException {
    if (isStandardOutput(file)) {
      PrintWriter out = spec.commandLine().getOut();
      out.print(new String(bytes, StandardCharsets.UTF_8));
      out.println();
      out.flush();
    } else {
      AtomicFile.write(file, o -> o.write(bytes));
    }
  }

  /** Where the summary line goes: standard error when one of the files is standard output. */
  static PrintWriter summary(CommandSpec spec, Path... files) {
    return Arrays.stream(files).anyMatch(FileOption::isStandardOutput)
        ? spec.commandLine().getErr() : spec.commandLine().getOut();
  }

  private static boolean isStandardOutput(Path file) {
    return file != null && file.toString().equals("-");
  }
}
