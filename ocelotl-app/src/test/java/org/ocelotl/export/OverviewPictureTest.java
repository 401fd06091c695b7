package org.ocelotl.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.ocelotl.view.ViewKind;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class OverviewPictureTest {
  static {
    System.setProperty("java.awt.headless", "true");
  }

  /** Every picture the tests draw is also left in target/pictures for a person to look at. */
  static final Path PICTURES = Path.of("target", "pictures");

  static byte[] render(OverviewInput in, Format format, int w, int h) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    OverviewPicture.render(in, format, w, h, out);
    Files.createDirectories(PICTURES);
    String name = in.traceName().startsWith("demo: 256") ? "big-" : "small-";
    Files.write(PICTURES.resolve(name + in.view().name().toLowerCase() + "-" + w + "x" + h + "."
        + format.name().toLowerCase()), out.toByteArray());
    return out.toByteArray();
  }

  static Document parse(byte[] svg) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
    factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    factory.setNamespaceAware(true);
    return factory.newDocumentBuilder().parse(new ByteArrayInputStream(svg));
  }

  @ParameterizedTest
  @EnumSource(ViewKind.class)
  void svgIsWellFormedWithOneTooltipPerBlock(ViewKind view) throws Exception {
    OverviewInput in = DemoTrace.smallInput(view);
    Document doc = parse(render(in, Format.SVG, 1200, 800));
    Element root = doc.getDocumentElement();
    assertEquals("svg", root.getLocalName());
    assertEquals("http://www.w3.org/2000/svg", root.getNamespaceURI());
    assertEquals("1200", root.getAttribute("width"));
    assertEquals("800", root.getAttribute("height"));
    NodeList titles = doc.getElementsByTagNameNS("http://www.w3.org/2000/svg", "title");
    int blocks = org.ocelotl.view.OverviewGeometry.build(in.model(), in.partition(), view, in.window(),
        null, 1, 0).blocks().size();
    assertEquals(blocks, titles.getLength(), "one tooltip per block");
    String first = titles.item(0).getTextContent();
    assertTrue(first.startsWith("[0, 2.5) s\n"), first);
  }

  @ParameterizedTest
  @EnumSource(ViewKind.class)
  void pngDecodesToTheRequestedSize(ViewKind view) throws Exception {
    byte[] png = render(DemoTrace.smallInput(view), Format.PNG, 1000, 700);
    BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
    assertEquals(1000, image.getWidth());
    assertEquals(700, image.getHeight());
  }

  @Test
  void thePerturbationIsDrawnInTheWaitColour() throws Exception {
    OverviewInput in = DemoTrace.smallInput(ViewKind.SPATIOTEMPORAL_MODE);
    BufferedImage image = ImageIO.read(new ByteArrayInputStream(render(in, Format.PNG, 1200, 800)));
    org.ocelotl.view.Overview o = org.ocelotl.view.OverviewGeometry.build(in.model(), in.partition(),
        in.view(), in.window(), null, 500, org.ocelotl.view.OverviewGeometry.VISUAL_THRESHOLD_PX);
    org.ocelotl.view.Block m2 = o.blocks().stream().filter(b -> b.node() == in.model().tree().find("m2"))
        .findFirst().orElseThrow();
    assertEquals(3, m2.type(), "MPI_Wait is the mode of m2 in 5.5-7.5 s");
    // Fills are not antialiased, so the block's pixels are exactly its colour over white.
    Color c = Color.decode(m2.colour());
    double a = m2.opacity();
    int[] expected = {blend(c.getRed(), a), blend(c.getGreen(), a), blend(c.getBlue(), a)};
    int matching = 0;
    for (int y = 0; y < image.getHeight(); y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        Color p = new Color(image.getRGB(x, y));
        if (Math.abs(p.getRed() - expected[0]) <= 2 && Math.abs(p.getGreen() - expected[1]) <= 2
            && Math.abs(p.getBlue() - expected[2]) <= 2) {
          matching++;
        }
      }
    }
    // The block is 8/40 of the overview's width and 4/16 of its height: well over 1000 pixels.
    assertTrue(matching > 1000, matching + " pixels of the wait colour " + java.util.Arrays.toString(expected));
  }

  static int blend(int channel, double alpha) {
    return (int) Math.round(channel * alpha + 255 * (1 - alpha));
  }

  @Test
  void visualAggregatesOfTheBigTreeAreMarked() throws Exception {
    OverviewInput in = DemoTrace.bigInput(ViewKind.SPATIOTEMPORAL_MODE);
    Document doc = parse(render(in, Format.SVG, 1200, 800));
    render(in, Format.PNG, 1200, 800);
    render(DemoTrace.bigInput(ViewKind.SPATIOTEMPORAL_PARTITION), Format.PNG, 1200, 800);
    NodeList titles = doc.getElementsByTagNameNS("http://www.w3.org/2000/svg", "title");
    int aggregated = 0;
    for (int i = 0; i < titles.getLength(); i++) {
      if (titles.item(i).getTextContent().contains("aggregated for display")) {
        aggregated++;
      }
    }
    // c3 over [10,39] (its halves are cut differently) and c5 over [22,29] (split in space only).
    assertEquals(2, aggregated);
  }

  @Test
  void writeChoosesTheFormatFromTheExtension(@TempDir Path dir) throws Exception {
    OverviewInput in = DemoTrace.smallInput(ViewKind.SPATIOTEMPORAL_MODE);
    Path png = dir.resolve("o.png");
    Path svg = dir.resolve("o.SVG");
    OverviewPicture.write(in, png, 640, 480);
    OverviewPicture.write(in, svg, 640, 480);
    assertEquals(640, ImageIO.read(png.toFile()).getWidth());
    assertEquals("svg", parse(Files.readAllBytes(svg)).getDocumentElement().getLocalName());
    assertEquals(List.of("o.SVG", "o.png"), Files.list(dir).map(p -> p.getFileName().toString()).sorted().toList(),
        "no temporary file left behind");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> OverviewPicture.write(in, dir.resolve("o.jpg"), 640, 480));
    assertTrue(e.getMessage().contains("ending in .svg or .png"), e.getMessage());
  }

  @Test
  void sizesOutsideTheLimitsAreRefusedClearly() {
    OverviewInput in = DemoTrace.smallInput(ViewKind.TEMPORAL_MODE);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> OverviewPicture.render(in, Format.PNG, 100, 100, new ByteArrayOutputStream()));
    assertTrue(e.getMessage().contains("got 100×100"), e.getMessage());
  }

  @Test
  void numbersAndWrappingReadWell() {
    assertEquals("0.2135", OverviewPicture.number(0.213456));
    assertEquals("12", OverviewPicture.number(12));
    assertEquals("1.5e+10", OverviewPicture.number(1.5e10));
    assertEquals(List.of("aaaa · bbbb", "cccc"), OverviewPicture.wrap(List.of("aaaa", "bbbb", "cccc"), 70, 10));
    assertEquals("abcdefgh…", OverviewPicture.fit("abcdefghijklmnop", 54, 10));
  }
}
