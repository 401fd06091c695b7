package org.ocelotl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** An internal error is one line and a hint by default; its stack trace with --debug. */
class DebugSwitchTest {
  private static String failure(Exception e, String... args) {
    StringWriter err = new StringWriter();
    CommandLine command = Main.commandLine(args).setErr(new PrintWriter(err));
    CommandLine.ParseResult parsed = command.parseArgs(args);
    assertEquals(1, Main.failure(e, command, parsed));
    return err.toString();
  }

  @Test
  void aBugSaysHowToGetItsStackTrace() {
    String err = failure(new IllegalStateException("boom"), "list");
    assertEquals("ocelotl: internal error: java.lang.IllegalStateException: boom\n"
        + "ocelotl: this is a bug; run again with --debug (or OCELOTL_DEBUG=1) for the stack trace to put in a bug report\n",
        err);
  }

  @Test
  void withDebugTheStackTraceFollows() {
    String err = failure(new IllegalStateException("boom"), "list", "--debug");
    assertTrue(err.startsWith("ocelotl: internal error: java.lang.IllegalStateException: boom\n"
        + "java.lang.IllegalStateException: boom\n\tat "), err);
  }

  @Test
  void aUserErrorStaysOneLineEvenWithDebug() {
    String err = failure(new IllegalArgumentException("--p must lie in [0, 1], got 2"), "list", "--debug");
    assertEquals("ocelotl: --p must lie in [0, 1], got 2\n", err);
    assertFalse(err.contains("\tat "));
  }
}
