package org.ocelotl.server;

import java.util.ArrayList;
import java.util.List;
import org.ocelotl.model.EventCategory;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.scan.ModelLayout;
import org.ocelotl.scan.ModelTree;
import org.ocelotl.scan.ScanKernels;
import org.ocelotl.scan.SliceGrid;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.TraceStore;

/**
 * An exact model by one sequential scan of the store's chunks over the window, with the
 * shared scan kernels. It stands in for the project's model builder (with its model cache and
 * parallel scan) until that lands; the server sees only {@link ModelSource}.
 */
public final class ScanModelSource implements ModelSource {
  @Override
  public BuiltModel build(TraceStore store, ModelRequest request) {
    StoreMetadata metadata = store.metadata();
    List<StoreMetadata.Producer> producers = metadata.producers();
    String[] names = new String[producers.size()];
    int[] parents = new int[producers.size()];
    long[] own = new long[producers.size()];
    for (StoreMetadata.Producer p : producers) {
      names[p.id()] = p.name();
      parents[p.id()] = p.parent();
    }
    EventCategory category = request.metric().category();
    countOwnRecords(store, category, request.start(), request.end(), own);
    ModelTree tree = ModelTree.of(names, parents, own, request.producers());
    List<StoreMetadata.EventType> storeTypes = metadata.types();
    int[] typeOf = new int[storeTypes.size()];
    List<String> typeNames = new ArrayList<>();
    List<String> colours = new ArrayList<>();
    for (StoreMetadata.EventType t : storeTypes) {
      boolean kept = t.category() == category && !request.excludedTypes().contains(t.name());
      typeOf[t.id()] = kept ? typeNames.size() : -1;
      if (kept) {
        typeNames.add(t.name());
        colours.add(t.color());
      }
    }
    if (typeNames.isEmpty()) {
      throw new IllegalArgumentException("no " + StoreMetadata.categoryName(category)
          + " left to show: the trace has none, or the type filter removed them all; the metric '"
          + request.metric().label() + "' needs some");
    }
    int leaves = tree.tree().leafCount();
    SliceGrid grid = new SliceGrid(request.start(), request.end(), request.slices());
    ModelLayout layout = new ModelLayout(tree.leafOf(), typeOf, leaves, typeNames.size(), grid);
    double[] cells = new double[layout.cells()];
    fill(store, request.metric(), layout, cells);
    return new BuiltModel(new MicroscopicModel(tree.tree(), request.slices(), typeNames, cells), true, colours);
  }

  /** Records of the category per producer in the window: producers with none get no row. */
  private static void countOwnRecords(TraceStore store, EventCategory category, double from, double to, long[] own) {
    switch (category) {
      case STATE -> store.scanStates(from, to, c -> count(c.size(), c.producer(), own));
      case EVENT -> store.scanEvents(from, to, c -> count(c.size(), c.producer(), own));
      case VARIABLE -> store.scanVariables(from, to, c -> count(c.size(), c.producer(), own));
      case LINK -> store.scanLinks(from, to, c -> count(c.size(), c.from(), own));
    }
  }

  private static void count(int size, int[] producer, long[] own) {
    for (int i = 0; i < size; i++) {
      own[producer[i]]++;
    }
  }

  private static void fill(TraceStore store, Metric metric, ModelLayout layout, double[] cells) {
    double from = layout.grid().start();
    double to = layout.grid().end();
    switch (metric) {
      case DURATION -> store.scanStates(from, to, c -> ScanKernels.stateDurations(layout, c.size(),
          c.producer(), c.type(), c.start(), c.end(), cells, null));
      case AVERAGE -> {
        double[] touches = new double[cells.length];
        store.scanStates(from, to, c -> ScanKernels.stateDurations(layout, c.size(),
            c.producer(), c.type(), c.start(), c.end(), cells, touches));
        for (int i = 0; i < cells.length; i++) {
          cells[i] = touches[i] > 0 ? cells[i] / touches[i] : 0;
        }
      }
      case EVENTS -> store.scanEvents(from, to, c -> ScanKernels.occurrences(layout, c.size(),
          c.producer(), c.type(), c.time(), cells));
      case LINKS -> store.scanLinks(from, to, c -> ScanKernels.occurrences(layout, c.size(),
          c.from(), c.type(), c.start(), cells));
      case VARIABLE -> {
        store.scanVariables(from, to, c -> ScanKernels.steps(layout, c.size(), c.producer(),
            c.type(), c.start(), c.end(), c.value(), cells));
        double width = layout.grid().width();
        for (int i = 0; i < cells.length; i++) {
          // Means of negative variables cannot enter a model of values ≥ 0.
          cells[i] = Math.max(0, cells[i] / width);
        }
      }
    }
  }
}
