package org.ocelotl.format;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.ocelotl.model.EventCategory;
import org.ocelotl.trace.MemoryTrace;

/** One interner for every reader: dense ids, each type declared once, scoped by group on demand. */
class TypeIdsTest {
  @Test
  void typesAreDeclaredOnceWithDenseIds() {
    MemoryTrace sink = new MemoryTrace();
    TypeIds ids = new TypeIds(sink, false);
    assertEquals(0, ids.id("run", EventCategory.STATE, "S"));
    assertEquals(1, ids.id("run", EventCategory.EVENT, "S"), "another category is another type");
    assertEquals(0, ids.id("run", EventCategory.STATE, "T"), "unscoped: the group does not tell types apart");
    assertEquals(2, ids.id("wait", EventCategory.STATE, null));
    assertEquals(3, ids.count());
    assertEquals(List.of("run", "run", "wait"), sink.types.stream().map(t -> t.name()).toList());
  }

  @Test
  void scopedTypesAreKnownByTheirGroupToo() {
    MemoryTrace sink = new MemoryTrace();
    TypeIds ids = new TypeIds(sink, true);
    assertEquals(0, ids.id("computing", EventCategory.STATE, "MPI_STATE"));
    assertEquals(1, ids.id("computing", EventCategory.STATE, "OTHER"));
    assertEquals(0, ids.id("computing", EventCategory.STATE, "MPI_STATE"));
    assertEquals(2, ids.id("computing", EventCategory.STATE, null));
    assertEquals(3, sink.types.size());
  }
}
