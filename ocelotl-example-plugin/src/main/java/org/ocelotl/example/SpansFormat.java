package org.ocelotl.example;

import java.nio.charset.StandardCharsets;
import org.ocelotl.trace.TraceFormat;
import org.ocelotl.trace.TraceFormatProvider;

/**
 * The "spans" format, a plug-in's format (docs/plugins.md): named in
 * {@code META-INF/services/org.ocelotl.trace.TraceFormatProvider}, so that Ocelotl's
 * {@link java.util.ServiceLoader} finds it when this module's jar is on the class path.
 */
public final class SpansFormat implements TraceFormatProvider {
  /** The first line of every spans file, which the recogniser looks for. */
  static final String MAGIC = "# spans 1";

  @Override
  public TraceFormat format() {
    return new TraceFormat("spans", "spans CSV (the example plug-in: PATH,NAME,START[,END] in seconds)",
        SpansReader::new, SpansFormat::recognizes);
  }

  /** Only the first line: cheap, and it claims no other format's file. */
  static boolean recognizes(byte[] head) {
    return new String(head, 0, Math.min(head.length, MAGIC.length()), StandardCharsets.UTF_8).equals(MAGIC);
  }
}
