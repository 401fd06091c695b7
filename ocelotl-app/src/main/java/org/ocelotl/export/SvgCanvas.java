package org.ocelotl.export;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** Writes SVG 1.1 text; plain string building, no library. */
final class SvgCanvas implements Canvas {
  private final StringBuilder svg = new StringBuilder();
  private int hatches;

  SvgCanvas(int width, int height) {
    svg.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        .append("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"").append(width)
        .append("\" height=\"").append(height).append("\" viewBox=\"0 0 ").append(width).append(' ')
        .append(height).append("\" font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\">\n")
        .append("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n");
  }

  @Override
  public void fill(double x, double y, double w, double h, String colour, double opacity, String tooltip) {
    svg.append("<rect x=\"").append(n(x)).append("\" y=\"").append(n(y)).append("\" width=\"")
        .append(n(w)).append("\" height=\"").append(n(h)).append("\" fill=\"").append(colour).append('"');
    if (opacity < 1) {
      svg.append(" fill-opacity=\"").append(n(opacity)).append('"');
    }
    if (tooltip == null) {
      svg.append("/>\n");
    } else {
      svg.append("><title>").append(escape(tooltip)).append("</title></rect>\n");
    }
  }

  @Override
  public void outline(double x, double y, double w, double h, String colour, double width) {
    svg.append("<rect x=\"").append(n(x)).append("\" y=\"").append(n(y)).append("\" width=\"")
        .append(n(w)).append("\" height=\"").append(n(h)).append("\" fill=\"none\" stroke=\"")
        .append(colour).append("\" stroke-width=\"").append(n(width)).append("\"/>\n");
  }

  @Override
  public void line(double x1, double y1, double x2, double y2, String colour, double width, boolean dashed) {
    svg.append("<line x1=\"").append(n(x1)).append("\" y1=\"").append(n(y1)).append("\" x2=\"")
        .append(n(x2)).append("\" y2=\"").append(n(y2)).append("\" stroke=\"").append(colour)
        .append("\" stroke-width=\"").append(n(width)).append('"');
    if (dashed) {
      svg.append(" stroke-dasharray=\"4 3\"");
    }
    svg.append("/>\n");
  }

  @Override
  public void line(double x1, double y1, double x2, double y2, String colour, double width, String tooltip) {
    svg.append("<line x1=\"").append(n(x1)).append("\" y1=\"").append(n(y1)).append("\" x2=\"")
        .append(n(x2)).append("\" y2=\"").append(n(y2)).append("\" stroke=\"").append(colour)
        .append("\" stroke-width=\"").append(n(width)).append("\"><title>").append(escape(tooltip))
        .append("</title></line>\n");
  }

  @Override
  public void polyline(double[] xs, double[] ys, String colour, double width) {
    svg.append("<polyline fill=\"none\" stroke=\"").append(colour).append("\" stroke-width=\"")
        .append(n(width)).append("\" stroke-linejoin=\"round\" points=\"");
    for (int i = 0; i < xs.length; i++) {
      svg.append(i == 0 ? "" : " ").append(n(xs[i])).append(',').append(n(ys[i]));
    }
    svg.append("\"/>\n");
  }

  @Override
  public void hatch(double x, double y, double w, double h, String colour) {
    String id = "hatch" + hatches++;
    svg.append("<clipPath id=\"").append(id).append("\"><rect x=\"").append(n(x)).append("\" y=\"")
        .append(n(y)).append("\" width=\"").append(n(w)).append("\" height=\"").append(n(h))
        .append("\"/></clipPath>\n<g clip-path=\"url(#").append(id).append(")\" stroke=\"")
        .append(colour).append("\" stroke-width=\"1\">");
    for (double d = -h; d < w; d += Hatching.SPACING) {
      svg.append("<line x1=\"").append(n(x + d)).append("\" y1=\"").append(n(y + h))
          .append("\" x2=\"").append(n(x + d + h)).append("\" y2=\"").append(n(y)).append("\"/>");
    }
    svg.append("</g>\n");
  }

  @Override
  public void text(double x, double y, String text, double size, String colour, Anchor anchor, boolean bold) {
    svg.append("<text x=\"").append(n(x)).append("\" y=\"").append(n(y)).append("\" font-size=\"")
        .append(n(size)).append("\" fill=\"").append(colour).append('"');
    if (anchor != Anchor.START) {
      svg.append(" text-anchor=\"").append(anchor == Anchor.MIDDLE ? "middle" : "end").append('"');
    }
    if (bold) {
      svg.append(" font-weight=\"bold\"");
    }
    svg.append('>').append(escape(text)).append("</text>\n");
  }

  @Override
  public void verticalText(double x, double y, String text, double size, String colour) {
    svg.append("<text transform=\"translate(").append(n(x)).append(',').append(n(y))
        .append(") rotate(-90)\" y=\"").append(n(size * 0.35)).append("\" font-size=\"")
        .append(n(size)).append("\" fill=\"").append(colour).append("\" text-anchor=\"middle\">")
        .append(escape(text)).append("</text>\n");
  }

  @Override
  public void finish(OutputStream out) throws IOException {
    svg.append("</svg>\n");
    out.write(svg.toString().getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  private static String n(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Decimals.fixed(v, 2);
  }

  private static String escape(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '&' || c == '<' || c == '>' || c == '"' || c < 0x20) {
        return escape(text, i);
      }
    }
    return text; // most names and tooltips need nothing: no copy
  }

  /** {@code text} escaped from index {@code from} on, the characters before it kept as they are. */
  private static String escape(String text, int from) {
    StringBuilder out = new StringBuilder(text.length() + 16).append(text, 0, from);
    for (int i = from; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        default -> {
          // XML 1.0 forbids most control characters, even escaped; a trace name could hold one.
          if (c >= 0x20 || c == '\n' || c == '\t') {
            out.append(c);
          }
        }
      }
    }
    return out.toString();
  }
}
