package org.ocelotl.trace;

import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * A trace format Ocelotl reads.
 *
 * @param name       what {@code --format} takes, e.g. "paje"
 * @param recognizes whether the first bytes of a file (decompressed when gzip) look like this
 *                   format; must be cheap and must not claim other formats' files
 */
public record TraceFormat(String name, String description, Supplier<TraceReader> reader,
    Predicate<byte[]> recognizes) {}
