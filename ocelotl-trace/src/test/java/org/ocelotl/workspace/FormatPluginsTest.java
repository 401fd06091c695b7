package org.ocelotl.workspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.ocelotl.trace.TraceFormat;
import org.ocelotl.trace.TraceFormatProvider;

/** Where the plug-ins' formats go among Ocelotl's own ({@link Formats#withPlugins}), and what is refused. */
class FormatPluginsTest {
  static TraceFormatProvider plugin(String name, String magic) {
    return () -> new TraceFormat(name, "a plug-in's", () -> (file, sink, options) -> { },
        head -> new String(head, StandardCharsets.UTF_8).startsWith(magic));
  }

  static List<String> names(Formats formats) {
    return formats.all().stream().map(TraceFormat::name).toList();
  }

  @Test
  void afterOcelotlsOwnButBeforePerfetto() {
    Formats formats = Formats.withPlugins(Formats.standard().all(), List.of(plugin("spans", "# spans"),
        plugin("other", "# other")));
    assertEquals(List.of("paje", "otf2", "ctf", "chrome", "jfr", "pjdump", "spans", "other", "perfetto"),
        names(formats));
  }

  @Test
  void noPluginOnTheTestClassPath() {
    assertEquals(List.of("paje", "otf2", "ctf", "chrome", "jfr", "pjdump", "perfetto"), names(Formats.standard()));
  }

  @Test
  void aNameOcelotlReadsOrTwiceIsRefused() {
    IllegalArgumentException own = assertThrows(IllegalArgumentException.class,
        () -> Formats.withPlugins(Formats.standard().all(), List.of(plugin("Paje", "#"))));
    assertEquals("trace format plug-in " + plugin("Paje", "#").getClass().getName()
        + " names its format 'Paje', which Ocelotl reads itself; rename it", own.getMessage());
    IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
        () -> Formats.withPlugins(Formats.standard().all(), List.of(plugin("spans", "#"), plugin("SPANS", "#"))));
    assertEquals("two trace format plug-ins on the class path name their format 'SPANS' ("
        + plugin("SPANS", "#").getClass().getName() + " is one); remove one", twice.getMessage());
  }
}
