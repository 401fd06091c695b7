package org.ocelotl.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.testing.SharedTraces;
import org.ocelotl.model.Metric;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.model.ProducerTree;
import org.ocelotl.store.TraceStore;
import org.ocelotl.workspace.ImportOptions;
import org.ocelotl.workspace.ImportProgress;
import org.ocelotl.workspace.Workspace;

/**
 * The link-volume metric on a SimGrid trace whose links carry their message Size
 * (examples/smpi_sizes.trace, examples/gen/simgrid-sizes): per rank, the bytes it sent equal
 * the sum of the Size fields of its PajeStartLink lines, read from the file by a plain split.
 */
class LinkVolumeTest {
  static final Path TRACE = Path.of(System.getProperty("user.dir")).resolve("../examples/smpi_sizes.trace").normalize();
  @TempDir static Path dir;
  static TraceStore store;

  @BeforeAll
  static void importTrace() throws IOException {
    store = Workspace.open(dir.resolve("ws")).store(TRACE, ImportOptions.DEFAULT, ImportProgress.NONE);
  }

  /** Bytes sent per container name: the Size (last field) of each StartLink (event 15) by its StartContainer. */
  static Map<String, Double> sentPerRank() throws IOException {
    Map<String, String> names = new HashMap<>();
    Map<String, Double> sent = new TreeMap<>();
    for (String line : Files.readAllLines(TRACE)) {
      String[] f = line.trim().split("\\s+");
      if (f[0].equals("6")) { // CreateContainer: time alias type container "name"
        names.put(f[2], f[5].replace("\"", ""));
      } else if (f[0].equals("15")) { // StartLink: time type container value startContainer key size
        sent.merge(names.get(f[5]), Double.parseDouble(f[7]), Double::sum);
      }
    }
    return sent;
  }

  /** Per leaf, the link-volume model summed over its slices; leaves that sent nothing left out. */
  static Map<String, Double> volumePerLeaf(TraceStore traceStore, int n) throws IOException {
    MicroscopicModel model = ModelBuilder.build(traceStore, ModelRequest.of(Metric.LINK_VOLUME, n)).model();
    ProducerTree tree = model.tree();
    Map<String, Double> got = new TreeMap<>();
    for (int leaf = 0; leaf < model.leaves(); leaf++) {
      double total = 0;
      for (int k = 0; k < n; k++) {
        for (int u = 0; u < model.types().size(); u++) {
          total += model.value(leaf, k, u);
        }
      }
      if (total > 0) {
        got.put(tree.name(tree.leafNode(leaf)), total);
      }
    }
    return got;
  }

  /**
   * The Score-P-style OTF2 archive of the test resources (local ids, clock offsets; see
   * Otf2ReaderTest): per location, the bytes sent are the Length of its MPI_SEND and MPI_ISEND
   * lines as otf2-print shows them (its stored output), every message having its receive.
   */
  @Test
  void otf2BytesSentPerLocationAreOtf2PrintsSendLengths() throws IOException {
    Path resources = Path.of("src/test/resources/org/ocelotl/format/otf2");
    Map<String, String> names = new HashMap<>();
    for (String line : Files.readAllLines(resources.resolve("scorep.defs.txt"))) {
      java.util.regex.Matcher m = java.util.regex.Pattern.compile("^LOCATION\\s+(\\d+)\\s+Name: \"(.*?)\"").matcher(line);
      if (m.find()) {
        names.put(m.group(1), m.group(2));
      }
    }
    Map<String, Double> expected = new TreeMap<>();
    for (String line : Files.readAllLines(resources.resolve("scorep.print.txt"))) {
      String[] f = line.trim().split("\\s+");
      if (f[0].equals("MPI_SEND") || f[0].equals("MPI_ISEND")) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("Length: (\\d+)").matcher(line);
        assertTrue(m.find(), line);
        expected.merge(names.get(f[1]), Double.parseDouble(m.group(1)), Double::sum);
      }
    }
    assertEquals(3, expected.size(), "3 ranks send: " + expected);
    TraceStore otf2 = Workspace.open(dir.resolve("ws-otf2"))
        .store(resources.resolve("scorep/traces.otf2"), ImportOptions.DEFAULT, ImportProgress.NONE);
    assertEquals(72, otf2.metadata().linkVolumes(), "every message has a size");
    for (int n : new int[] {1, 7}) {
      assertEquals(expected, volumePerLeaf(otf2, n), "N = " + n);
    }
  }

  @Test
  void bytesSentPerRankAreTheSizeFieldsOfTheTrace() throws IOException {
    Map<String, Double> expected = sentPerRank();
    assertEquals(4, expected.size(), "4 ranks send: " + expected);
    assertTrue(store.metadata().offers(Metric.LINK_VOLUME));
    assertEquals(store.metadata().count(org.ocelotl.model.EventCategory.LINK), store.metadata().linkVolumes(),
        "every link of this trace has a size");
    for (int n : new int[] {1, 7}) {
      assertEquals(expected, volumePerLeaf(store, n), "N = " + n);
    }
  }

  @Test
  void aTraceWithoutSizesDoesNotOfferTheMetricAndSaysWhy() throws IOException {
    TraceStore plain = Workspace.open(dir.resolve("ws2")).store(SharedTraces.file("paje/simgrid/smpi_small_flat.trace"),
        ImportOptions.DEFAULT, ImportProgress.NONE);
    assertTrue(plain.metadata().offers(Metric.LINK_COUNT));
    assertEquals(false, plain.metadata().offers(Metric.LINK_VOLUME));
    String message = assertThrows(IllegalArgumentException.class,
        () -> ModelBuilder.build(plain, ModelRequest.of(Metric.LINK_VOLUME, 10))).getMessage();
    assertEquals("the trace smpi_small_flat.trace gives no link a volume (a Pajé Size field, an OTF2 message length): "
        + "the link-volume metric needs them", message);
  }

  @Test
  void theEventTableGivesEachLinkItsVolume() {
    org.ocelotl.query.RecordQuery.Selection s = new org.ocelotl.query.RecordQuery.Selection(store.metadata().start(),
        store.metadata().end(), null, null, java.util.EnumSet.of(org.ocelotl.model.EventCategory.LINK), null,
        Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, org.ocelotl.query.RecordQuery.Column.VALUE, true, 0, 1000);
    List<org.ocelotl.query.RecordQuery.Record> links = org.ocelotl.query.RecordQuery.select(store, s).records();
    assertEquals(40, links.size());
    double total = links.stream().mapToDouble(org.ocelotl.query.RecordQuery.Record::value).sum();
    double expected = 0;
    try {
      expected = sentPerRank().values().stream().mapToDouble(Double::doubleValue).sum();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    assertEquals(expected, total, 0);
  }
}
