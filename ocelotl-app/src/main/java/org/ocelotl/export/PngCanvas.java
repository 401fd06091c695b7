package org.ocelotl.export;

import java.awt.AlphaComposite;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Composite;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.Shape;
import java.awt.geom.AffineTransform;
import java.awt.geom.Line2D;
import java.awt.geom.Path2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.OutputStream;
import javax.imageio.ImageIO;

/** Draws with java.awt on an image (headless) and writes it as PNG. */
final class PngCanvas implements Canvas {
  private final BufferedImage image;
  private final Graphics2D g;

  PngCanvas(int width, int height) {
    System.setProperty("java.awt.headless", "true");
    image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    g = image.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
    g.setRenderingHint(RenderingHints.KEY_FRACTIONALMETRICS, RenderingHints.VALUE_FRACTIONALMETRICS_ON);
    g.setRenderingHint(RenderingHints.KEY_STROKE_CONTROL, RenderingHints.VALUE_STROKE_PURE);
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, width, height);
  }

  @Override
  public void fill(double x, double y, double w, double h, String colour, double opacity, String tooltip) {
    // Fills are not antialiased: blocks sit on whole pixels (the layout rounds their edges), and
    // antialiased edges of touching blocks would leave faint seams between them.
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_OFF);
    Composite saved = g.getComposite();
    if (opacity < 1) {
      g.setComposite(AlphaComposite.getInstance(AlphaComposite.SRC_OVER, (float) opacity));
    }
    g.setColor(Color.decode(colour));
    g.fill(new Rectangle2D.Double(x, y, w, h));
    g.setComposite(saved);
  }

  @Override
  public void outline(double x, double y, double w, double h, String colour, double width) {
    stroke(colour, width, false);
    g.draw(new Rectangle2D.Double(x, y, w, h));
  }

  @Override
  public void line(double x1, double y1, double x2, double y2, String colour, double width, boolean dashed) {
    stroke(colour, width, dashed);
    g.draw(new Line2D.Double(x1, y1, x2, y2));
  }

  @Override
  public void polyline(double[] xs, double[] ys, String colour, double width) {
    Path2D.Double path = new Path2D.Double();
    path.moveTo(xs[0], ys[0]);
    for (int i = 1; i < xs.length; i++) {
      path.lineTo(xs[i], ys[i]);
    }
    stroke(colour, width, false);
    g.draw(path);
  }

  @Override
  public void hatch(double x, double y, double w, double h, String colour) {
    Shape saved = g.getClip();
    g.clip(new Rectangle2D.Double(x, y, w, h));
    stroke(colour, 1, false);
    for (double d = -h; d < w; d += Hatching.SPACING) {
      g.draw(new Line2D.Double(x + d, y + h, x + d + h, y));
    }
    g.setClip(saved);
  }

  @Override
  public void text(double x, double y, String text, double size, String colour, Anchor anchor, boolean bold) {
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setFont(new Font(Font.SANS_SERIF, bold ? Font.BOLD : Font.PLAIN, 1).deriveFont((float) size));
    g.setColor(Color.decode(colour));
    FontMetrics metrics = g.getFontMetrics();
    double width = metrics.getStringBounds(text, g).getWidth();
    double left = switch (anchor) {
      case START -> x;
      case MIDDLE -> x - width / 2;
      case END -> x - width;
    };
    g.drawString(text, (float) left, (float) y);
  }

  @Override
  public void verticalText(double x, double y, String text, double size, String colour) {
    AffineTransform saved = g.getTransform();
    g.translate(x, y);
    g.rotate(-Math.PI / 2);
    text(0, size * 0.35, text, size, colour, Anchor.MIDDLE, false);
    g.setTransform(saved);
  }

  @Override
  public void finish(OutputStream out) throws IOException {
    g.dispose();
    if (!ImageIO.write(image, "png", out)) {
      throw new IOException("this JDK has no PNG writer");
    }
    out.flush();
  }

  private void stroke(String colour, double width, boolean dashed) {
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setColor(Color.decode(colour));
    g.setStroke(dashed
        ? new BasicStroke((float) width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10, new float[] {4, 3}, 0)
        : new BasicStroke((float) width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND));
  }
}
