package org.ocelotl.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.format.paje.PajeReader;
import org.ocelotl.trace.MemoryTrace;
import org.ocelotl.trace.ReadOptions;

/** The seed-scale generator writes what it says: a strict Pajé trace whose records show its truth. */
class SeedTraceTest {
  @TempDir Path dir;

  @Test
  void writesTheShapeAndTheStatesItCounts() throws Exception {
    SeedTrace.Shape shape = new SeedTrace.Shape(2, 2, 3, 2); // 24 ranks
    Path file = dir.resolve("seed.trace");
    SeedTrace.Truth truth = SeedTrace.write(file, 24 * 3 * 500, shape, 7);
    MemoryTrace trace = new MemoryTrace();
    new PajeReader().read(file, trace, ReadOptions.STRICT);

    assertEquals(24 * 3 * 500, truth.states());
    assertEquals(truth.states(), trace.states.size());
    assertEquals(1 + 2 + 4 + 12 + 24, trace.producers.size()); // the root too
    assertEquals(truth.duration(), trace.end, 1e-9);
    assertTrue(Math.abs(truth.duration() - 10) < 0.5, "about 10 s: " + truth.duration());
    assertEquals("host-1-1-1", truth.slowHost().producer());
    assertEquals("cab-1-0", truth.slowCabinet().producer());
  }

  /**
   * In the host's window its ranks compute most of the time while the others wait, and in the
   * cabinet's window its ranks spend longer in the collective than anyone else: the truth the
   * generator states is in the records, not only in its parameters.
   */
  @Test
  void thePerturbationsAreInTheRecords() throws Exception {
    SeedTrace.Shape shape = new SeedTrace.Shape(2, 2, 3, 2);
    Path file = dir.resolve("seed.trace");
    SeedTrace.Truth truth = SeedTrace.write(file, 24 * 3 * 2000, shape, 11);
    MemoryTrace trace = new MemoryTrace();
    new PajeReader().read(file, trace, ReadOptions.STRICT);

    Map<Integer, String> parentName = new HashMap<>();
    Map<Integer, Integer> parent = new HashMap<>();
    for (MemoryTrace.Producer p : trace.producers) {
      parentName.put(p.id(), p.name());
      parent.put(p.id(), p.parent());
    }
    SeedTrace.Perturbation host = truth.slowHost();
    SeedTrace.Perturbation cabinet = truth.slowCabinet();
    double[] hostCompute = new double[2]; // inside the host, elsewhere: compute time in its window
    double[] cabinetCollective = new double[2];
    for (MemoryTrace.State s : trace.states) {
      String type = trace.types.get(s.type()).name();
      int hostId = parent.get(s.producer());
      boolean inHost = parentName.get(hostId).equals(host.producer());
      boolean inCabinet = parentName.get(parent.get(hostId)).equals(cabinet.producer());
      if (type.equals("compute")) {
        hostCompute[inHost ? 0 : 1] += overlap(s, host.start(), host.end());
      } else if (type.equals("collective")) {
        cabinetCollective[inCabinet ? 0 : 1] += overlap(s, cabinet.start(), cabinet.end());
      }
    }
    double hostWindow = host.end() - host.start();
    double cabinetWindow = cabinet.end() - cabinet.start();
    // Two ranks of the slow host against 22 others: per rank, a share of the window.
    assertTrue(hostCompute[0] / 2 / hostWindow > 0.75, "slow host computes: " + hostCompute[0] / 2);
    assertTrue(hostCompute[1] / 22 / hostWindow < 0.40, "others wait: " + hostCompute[1] / 22);
    assertTrue(cabinetCollective[0] / 6 / cabinetWindow > 0.40, "slow cabinet: " + cabinetCollective[0] / 6);
    assertTrue(cabinetCollective[1] / 18 / cabinetWindow < 0.20, "others: " + cabinetCollective[1] / 18);
  }

  private static double overlap(MemoryTrace.State s, double from, double to) {
    return Math.max(0, Math.min(s.end(), to) - Math.max(s.start(), from));
  }
}
