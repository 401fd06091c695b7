package org.ocelotl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class ProgressBarTest {
  @Test
  void linesSayHowFarAndHowFast() {
    assertEquals("importing [###############...............]  146.0/292.0 MB   1.20 M records/s  ETA 10 s",
        ProgressBar.importLine(146_000_000, 292_000_000, 12_000_000, 10));
    assertEquals("building the model [########......................]  25 %  3.0 s  ETA 9 s",
        ProgressBar.stageLine("building the model", 10, 40, 3));
    assertEquals("computing qualities and breakpoints  12,345 steps  2.5 s",
        ProgressBar.stageLine("computing qualities and breakpoints", 12_345, 0, 2.5));
    assertEquals("working [..............................]   0 %  0.0 s  ETA ?", ProgressBar.stageLine(null, 0, 7, 0));
  }

  @Test
  void offSaysNothingButNotes() {
    StringWriter text = new StringWriter();
    try (ProgressBar bar = new ProgressBar(new PrintWriter(text), ProgressBar.Mode.OFF)) {
      bar.update(1, 2, 3);
      bar.stage("building the model");
      bar.advanced(1, 2);
      bar.note("re-importing: the file changed");
    }
    assertEquals("ocelotl: re-importing: the file changed" + System.lineSeparator(), text.toString());
  }

  @Test
  void plainPrintsEachStageAsALineAndThrottlesTheRest() {
    StringWriter text = new StringWriter();
    try (ProgressBar bar = new ProgressBar(new PrintWriter(text), ProgressBar.Mode.PLAIN)) {
      bar.stage("building the model");
      for (int i = 1; i <= 1000; i++) {
        bar.advanced(i, 1000); // within a second of the stage's line: not printed
      }
      bar.stage("drawing");
    }
    assertEquals("building the model" + System.lineSeparator() + "drawing" + System.lineSeparator(), text.toString());
  }

  @Test
  void onATerminalTheLineIsRewrittenInPlaceAndErasedAtTheEnd() {
    StringWriter text = new StringWriter();
    try (ProgressBar bar = new ProgressBar(new PrintWriter(text), ProgressBar.Mode.TERMINAL)) {
      bar.stage("computing qualities and breakpoints");
      bar.stage("drawing");
    }
    String shown = text.toString();
    assertTrue(!shown.contains("\n"), shown);
    assertEquals("\rcomputing qualities and breakpoints\rdrawing" + " ".repeat(28) + "\r" + " ".repeat(7) + "\r",
        shown);
  }
}
