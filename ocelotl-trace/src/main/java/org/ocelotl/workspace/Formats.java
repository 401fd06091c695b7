package org.ocelotl.workspace;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.stream.Collectors;
import java.util.zip.GZIPInputStream;
import org.ocelotl.format.chrome.ChromeReader;
import org.ocelotl.format.ctf.CtfReader;
import org.ocelotl.format.jfr.JfrReader;
import org.ocelotl.format.otf2.Otf2Reader;
import org.ocelotl.format.otf2.Otf2Split;
import org.ocelotl.format.paje.PajeReader;
import org.ocelotl.format.paje.PajeSplit;
import org.ocelotl.format.perfetto.PerfettoReader;
import org.ocelotl.format.pjdump.PjDumpReader;
import org.ocelotl.split.MessageSplit;
import org.ocelotl.split.Otf2Files;
import org.ocelotl.split.RangeSplit;
import org.ocelotl.trace.TraceFormat;
import org.ocelotl.trace.TraceFormatException;
import org.ocelotl.trace.TraceFormatProvider;

/**
 * The formats Ocelotl reads, chosen by name ({@code --format}) or recognised from a file's
 * first bytes. Adding a format to Ocelotl is one line in {@link #standard()}; adding one from outside
 * is a plug-in jar on the class path ({@link TraceFormatProvider}, docs/plugins.md).
 */
public final class Formats {
  /** How many leading bytes recognisers see. */
  static final int HEAD_BYTES = 64 * 1024;
  private final List<TraceFormat> formats;

  public Formats(List<TraceFormat> formats) {
    this.formats = List.copyOf(formats);
  }

  /**
   * Every format of this build, most specific recogniser first, with the plug-ins' formats found on
   * the class path.
   *
   * @throws IllegalArgumentException a plug-in that cannot be loaded, or names a format already read
   */
  public static Formats standard() {
    return withPlugins(builtIn(), ServiceLoader.load(TraceFormatProvider.class));
  }

  private static List<TraceFormat> builtIn() {
    return List.of(
        new TraceFormat("paje", "Pajé (PajeNG, SimGrid, ViTE, Akypuera), plain or gzip", PajeReader::new,
            Formats::looksLikePaje),
        new TraceFormat("otf2", "OTF2 archive (Score-P, EZTrace): give the anchor file NAME.otf2", Otf2Reader::new,
            Otf2Reader::sniff),
        new TraceFormat("ctf", "CTF 1.8 trace (LTTng): give the metadata file of a stream directory", CtfReader::new,
            CtfReader::sniff),
        new TraceFormat("chrome", "Chrome Trace Event JSON (Chrome, Perfetto, Node, PyTorch)", ChromeReader::new,
            ChromeReader::sniff),
        new TraceFormat("jfr", "Java Flight Recorder recording", JfrReader::new, JfrReader::sniff),
        new TraceFormat("pjdump", "pj_dump CSV (PajeNG's textual dump)", PjDumpReader::new, PjDumpReader::sniff),
        // Last: its recogniser checks protobuf framing, which a text opening with a blank line could pass.
        new TraceFormat("perfetto", "Perfetto protobuf trace (.perfetto-trace, .pftrace)", PerfettoReader::new,
            PerfettoReader::sniff));
  }

  /**
   * {@code builtIn} with the providers' formats before the last built-in one (Perfetto, whose
   * recogniser checks only protobuf framing, which a plug-in's text format could pass), and after
   * the others, so that a plug-in never takes a file that one of Ocelotl's own readers recognises.
   */
  static Formats withPlugins(List<TraceFormat> builtIn, Iterable<TraceFormatProvider> providers) {
    List<TraceFormat> formats = new ArrayList<>(builtIn.subList(0, builtIn.size() - 1));
    try {
      for (TraceFormatProvider provider : providers) {
        TraceFormat format = provider.format();
        String plugin = provider.getClass().getName();
        if (format == null || format.name() == null || format.name().isBlank() || format.reader() == null
            || format.recognizes() == null) {
          throw new IllegalArgumentException("trace format plug-in " + plugin + " gives no name, reader or recogniser");
        }
        for (TraceFormat known : builtIn) {
          if (known.name().equalsIgnoreCase(format.name())) {
            throw new IllegalArgumentException("trace format plug-in " + plugin + " names its format '" + format.name()
                + "', which Ocelotl reads itself; rename it");
          }
        }
        for (TraceFormat known : formats.subList(builtIn.size() - 1, formats.size())) {
          if (known.name().equalsIgnoreCase(format.name())) {
            throw new IllegalArgumentException("two trace format plug-ins on the class path name their format '"
                + format.name() + "' (" + plugin + " is one); remove one");
          }
        }
        formats.add(format);
      }
    } catch (ServiceConfigurationError e) {
      // A jar that names a class it lacks, or one without a public no-argument constructor.
      throw new IllegalArgumentException("a trace format plug-in on the class path cannot be loaded: " + e.getMessage());
    }
    formats.add(builtIn.get(builtIn.size() - 1));
    return new Formats(formats);
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
    byte[] raw;
    try (InputStream in = Files.newInputStream(file)) {
      raw = in.readNBytes(HEAD_BYTES);
    }
    if (raw.length < 2 || (raw[0] & 0xff) != 0x1f || (raw[1] & 0xff) != 0x8b) {
      return raw;
    }
    // What decompresses before any damage: a truncated or corrupt stream is still recognised,
    // so that its reader reports the damage precisely.
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
      byte[] buffer = new byte[8192];
      int read;
      while (text.size() < HEAD_BYTES && (read = in.read(buffer, 0, Math.min(buffer.length, HEAD_BYTES - text.size()))) > 0) {
        text.write(buffer, 0, read);
      }
    } catch (IOException e) {
      // keep what was decompressed
    }
    return text.toByteArray();
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

  // ---------------------------------------------------------------- split readers (a distributed import)

  /**
   * A Pajé trace to be read over byte ranges (org.ocelotl.split): its header read from {@code text},
   * the trace's text from its start, named {@code file} in messages.
   */
  public static RangeSplit<?, ?, ?, ?> pajeSplit(InputStream text, String file) throws IOException {
    return PajeSplit.open(text, file);
  }

  /** An OTF2 archive to be read a location per task (org.ocelotl.split): its anchor and global definitions read. */
  public static MessageSplit<?, ?, ?, ?, ?> otf2Split(Otf2Files files) throws IOException {
    return Otf2Split.open(files);
  }

  /**
   * A gzip'd Pajé trace's text, refused beyond the local reader's expansion limit, as the local
   * reader reads it; {@code compressed} is the file's size.
   */
  public static InputStream gunzipPaje(String file, InputStream raw, long compressed) throws IOException {
    return PajeReader.gunzip(file, raw, compressed);
  }

  /** A cut or corrupt gzip stream of {@code file}, worded as the local reader words it. */
  public static TraceFormatException gzipError(String file, IOException e) {
    return PajeReader.gzipError(file, e);
  }
}
