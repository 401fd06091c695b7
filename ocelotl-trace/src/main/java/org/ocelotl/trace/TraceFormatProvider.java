package org.ocelotl.trace;

/**
 * The service interface of a trace-format plug-in (docs/plugins.md): a jar on Ocelotl's class path
 * that names an implementation in {@code META-INF/services/org.ocelotl.trace.TraceFormatProvider}
 * adds its format to every command ({@code --format NAME}, and recognised from a file's first bytes
 * when its recogniser accepts them). Found with {@link java.util.ServiceLoader}, so the
 * implementation needs a public constructor without arguments.
 *
 * <p>The format's reader writes into the same {@link TraceSink} as Ocelotl's own readers, so a
 * trace read by a plug-in is stored, analysed, drawn and exported as any other.
 */
public interface TraceFormatProvider {
  /** The format: its name (not one of Ocelotl's own), description, reader and recogniser. */
  TraceFormat format();
}
