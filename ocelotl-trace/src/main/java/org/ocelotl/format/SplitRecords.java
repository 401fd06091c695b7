package org.ocelotl.format;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.ocelotl.trace.TraceSink;

/**
 * States, events and variables as a reader split across tasks (Pajé by byte ranges, OTF2 by
 * location) records them for the driver: a tag byte, then the sink call's arguments; replayed
 * with the task's type ids mapped to the import's. Each split adds its own tags for what else it
 * records; these three are letters, apart from theirs.
 */
public final class SplitRecords {
  public static final byte STATE = 'S';
  public static final byte EVENT = 'E';
  public static final byte VARIABLE = 'V';

  private SplitRecords() {}

  public static void state(DataOutput out, int producer, int type, double start, double end, int depth,
      int outer) throws IOException {
    out.writeByte(STATE);
    out.writeInt(producer);
    out.writeInt(type);
    out.writeDouble(start);
    out.writeDouble(end);
    out.writeInt(depth);
    out.writeInt(outer);
  }

  public static void event(DataOutput out, int producer, int type, double time) throws IOException {
    out.writeByte(EVENT);
    out.writeInt(producer);
    out.writeInt(type);
    out.writeDouble(time);
  }

  public static void variable(DataOutput out, int producer, int type, double time, double value) throws IOException {
    out.writeByte(VARIABLE);
    out.writeInt(producer);
    out.writeInt(type);
    out.writeDouble(time);
    out.writeDouble(value);
  }

  /**
   * Replays the record whose tag was just read, its type through {@code types}; false if the tag
   * is none of these three (the split's own).
   */
  public static boolean replay(byte tag, DataInput in, int[] types, TraceSink sink) throws IOException {
    switch (tag) {
      case STATE -> {
        // In this order: the arguments are read as written.
        int producer = in.readInt();
        int type = types[in.readInt()];
        double start = in.readDouble();
        double end = in.readDouble();
        int depth = in.readInt();
        int outer = in.readInt();
        sink.state(producer, type, start, end, depth, outer < 0 ? -1 : types[outer]);
      }
      case EVENT -> sink.event(in.readInt(), types[in.readInt()], in.readDouble());
      case VARIABLE -> sink.variable(in.readInt(), types[in.readInt()], in.readDouble(), in.readDouble());
      default -> {
        return false;
      }
    }
    return true;
  }
}
