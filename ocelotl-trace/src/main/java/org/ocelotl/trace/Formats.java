package org.ocelotl.trace;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.zip.GZIPInputStream;

/**
 * The formats Ocelotl reads, chosen by name ({@code --format}) or recognised from a file's
 * first bytes. Adding a format is one line in {@link #standard()}.
 */
public final class Formats {
  /** How many leading bytes recognisers see. */
  static final int HEAD_BYTES = 4096;
  private final List<TraceFormat> formats;

  public Formats(List<TraceFormat> formats) {
    this.formats = List.copyOf(formats);
  }

  /** Every format of this build, most specific recogniser first. */
  public static Formats standard() {
    return new Formats(List.of(
    ));
  }

  public List<TraceFormat> all() {
    return formats;
  }

  /** The format called {@code name}; the error lists the known names. */
  public TraceFormat named(String name) {
    for (TraceFormat format : formats) {
      if (format.name().equalsIgnoreCase(name)) {
        return format;
      }
    }
    throw new IllegalArgumentException("unknown format '" + name + "'; known formats: " + names());
  }

  /** The first format whose recogniser accepts the file's first bytes. */
  public TraceFormat detect(Path file) throws IOException {
    byte[] head = head(file);
    for (TraceFormat format : formats) {
      if (format.recognizes().test(head)) {
        return format;
      }
    }
    throw new TraceFormatException(file + ": not a trace format Ocelotl recognises (" + names()
        + "); name the format with --format");
  }

  private String names() {
    return formats.isEmpty() ? "none" : formats.stream().map(TraceFormat::name).collect(Collectors.joining(", "));
  }

  /** Up to {@link #HEAD_BYTES} first bytes of the file, decompressed when it is gzip. */
  static byte[] head(Path file) throws IOException {
    byte[] raw = readHead(Files.newInputStream(file));
    if (raw.length >= 2 && (raw[0] & 0xff) == 0x1f && (raw[1] & 0xff) == 0x8b) {
      try {
        return readHead(new GZIPInputStream(Files.newInputStream(file)));
      } catch (IOException e) {
        return raw; // a damaged gzip stream: let recognisers (and then the reader) judge
      }
    }
    return raw;
  }

  private static byte[] readHead(InputStream opened) throws IOException {
    try (InputStream in = opened) {
      return in.readNBytes(HEAD_BYTES);
    }
  }

  /**
   * Pajé: after blank lines and '#' comments, the first line is a '%' definition line
   * (every Pajé trace opens with its %EventDef header).
   */
  public static boolean looksLikePaje(byte[] head) {
    String text = new String(head, StandardCharsets.ISO_8859_1);
    for (String line : text.split("\n", -1)) {
      String trimmed = line.strip();
      if (trimmed.isEmpty() || trimmed.startsWith("#")) {
        continue;
      }
      return trimmed.startsWith("%EventDef") || trimmed.startsWith("% EventDef");
    }
    return false;
  }
}
