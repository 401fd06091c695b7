package org.ocelotl.scan;

import java.io.IOException;
import org.ocelotl.store.TraceStore;

/**
 * Builds models through an on-disk cache kept in the trace's store directory (see
 * docs/models.md): a model for a coarser grid or a sub-window is rebuilt from a finer cached
 * one without reading the trace.
 */
public final class ModelCache {
  /** Default size limit of the cache of one trace. */
  public static final long DEFAULT_LIMIT_BYTES = 256L << 20;
  /** Environment variable overriding the limit, in MiB. */
  public static final String LIMIT_ENV = "OCELOTL_MODEL_CACHE_MB";

  private final long limitBytes;

  public ModelCache(long limitBytes) {
    this.limitBytes = limitBytes;
  }

  /** The cache with the limit from {@value #LIMIT_ENV}, else {@link #DEFAULT_LIMIT_BYTES}. */
  public static ModelCache standard() {
    return new ModelCache(DEFAULT_LIMIT_BYTES);
  }

  public long limitBytes() {
    return limitBytes;
  }

  /** Same contract as {@link ModelBuilder#build}, served from the cache where it can be. */
  public BuiltModel build(TraceStore store, ModelRequest request) throws IOException {
    return ModelBuilder.build(store, request);
  }
}
