package org.ocelotl.format.otf2;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.ocelotl.model.EventCategory;
import org.ocelotl.trace.MemoryTrace;

/**
 * Message sides matched into links, FIFO per (sender, receiver, tag), whichever side the reader
 * meets first (the sender's event file or the receiver's); the link carries the send's length.
 */
class Otf2MessagesTest {
  private static final int SEND = Otf2Records.MPI_SEND;
  private static final int RECV = Otf2Records.MPI_RECV;

  @Test
  void sidesPairInOrderPerChannelWithTheSendsLength() throws IOException {
    MemoryTrace trace = new MemoryTrace();
    Otf2Events events = new Otf2Events(new Otf2Definitions(), trace, Map.of());
    events.messageEnd(1, 2, 7, true, 10, SEND, 64);
    events.messageEnd(1, 2, 7, true, 20, SEND, 128);
    events.messageEnd(1, 2, 8, true, 25, SEND, 9); // another tag: another channel, never received
    events.messageEnd(1, 2, 7, false, 30, RECV, 200);
    events.messageEnd(3, 1, 7, false, 40, RECV, 16); // the receive read first
    events.messageEnd(1, 2, 7, false, 50, RECV, 128);
    events.messageEnd(3, 1, 7, true, 35, SEND, 16);
    events.finish();
    // The link type first; the record kind's type only for the message left unmatched.
    assertEquals(List.of("MPI message", "MPI_SEND"), trace.types.stream().map(MemoryTrace.Type::name).toList());
    int link = trace.types.get(0).id();
    assertEquals(EventCategory.LINK, trace.types.get(0).category());
    assertEquals(List.of(new MemoryTrace.Link(link, 1, 2, 10, 30, 64), new MemoryTrace.Link(link, 1, 2, 20, 50, 128),
        new MemoryTrace.Link(link, 3, 1, 35, 40, 16)), trace.links);
    assertEquals(List.of(new MemoryTrace.Event(1, trace.types.get(1).id(), 25)), trace.events);
    assertEquals(List.of("1 × message without its matching send/receive (kept as an event)"), trace.warnings);
  }

  /**
   * Clocks out of step: a receive before its send (as otf2-print shows them). The link keeps the
   * send's time at both ends, and the trace says how many were so, instead of being refused.
   */
  @Test
  void aReceiveBeforeItsSendEndsWhereTheSendStarts() throws IOException {
    MemoryTrace trace = new MemoryTrace();
    Otf2Events events = new Otf2Events(new Otf2Definitions(), trace, Map.of());
    events.messageEnd(1, 2, 0, true, 100, SEND, 64);
    events.messageEnd(1, 2, 0, false, 90, RECV, 64);
    events.messageEnd(2, 1, 0, false, 70, RECV, 8);
    events.messageEnd(2, 1, 0, true, 75, SEND, 8);
    events.finish();
    assertEquals(List.of("MPI message"), trace.types.stream().map(MemoryTrace.Type::name).toList());
    int link = trace.types.get(0).id();
    assertEquals(List.of(new MemoryTrace.Link(link, 1, 2, 100, 100, 64), new MemoryTrace.Link(link, 2, 1, 75, 75, 8)),
        trace.links);
    assertEquals(List.of("2 × message received before it was sent (clocks out of step): its link ends when it starts"),
        trace.warnings);
  }
}
