package org.ocelotl.server;

import java.util.LinkedHashMap;
import java.util.Map;
import org.ocelotl.analysis.Progress;

/**
 * The computation each client has under way, for progress reports and cancellation. A client
 * (one open page) numbers its requests; a new request cancels the previous one of the same
 * client, which stops at its next stage boundary, and a request older than the newest one is
 * refused: an answer to a stale request is never computed for nothing nor drawn. A page polls
 * the progress of its request while it waits; a request whose page stopped polling (closed,
 * gone elsewhere) for {@link #ABANDONED_SECONDS} s is abandoned: it stops at its next check, so
 * nobody's forgotten N = 200 search holds the server for minutes. So is a request whose client
 * closed its connection (a script's timeout, a closed tab), with or without a client id: the
 * server notices within a fraction of a second ({@link HttpListener#clientGone}).
 */
final class Jobs {
  static final int ABANDONED_SECONDS = 10;

  private final long abandonedNanos;

  Jobs() {
    this(ABANDONED_SECONDS * 1_000_000_000L);
  }

  /** @param abandonedNanos how long without a poll makes a polled request abandoned */
  Jobs(long abandonedNanos) {
    this.abandonedNanos = abandonedNanos;
  }

  /** Pages remembered, the least recently active forgotten first: ids come from clients. */
  static final int MAX_CLIENTS = 1000;

  private final Map<String, Job> latest = java.util.Collections.synchronizedMap(
      new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Job> eldest) {
          return size() > MAX_CLIENTS;
        }
      });

  /** A job for a client's request; an anonymous one (client null) is cancelled only when its client leaves. */
  Job begin(String client, long seq) {
    Job job = new Job(client, seq, abandonedNanos, HttpListener.clientGone());
    if (client == null) {
      return job;
    }
    latest.compute(client, (key, previous) -> {
      // A retry of a finished request (after a 503) keeps its number; anything older is stale.
      if (previous != null && (previous.seq > seq || previous.seq == seq && !previous.finished)) {
        throw new HttpError(409, "request " + seq + " is not newer than request " + previous.seq + " of the same page; ignored");
      }
      if (previous != null) {
        previous.cancelled = true;
      }
      return job;
    });
    return job;
  }

  /** The job is done; its client's newest seq is remembered, so an older request stays refused. */
  void end(Job job) {
    job.finished = true;
  }

  /** How many pages are remembered. */
  int clients() {
    return latest.size();
  }

  /** The answer of {@code GET /api/progress}: {@link Idle} or {@link Running}. */
  sealed interface ProgressAnswer permits Idle, Running {}

  /** The client has no request under way. */
  record Idle(String stage) implements ProgressAnswer {
    Idle() {
      this("idle");
    }
  }

  /** The client's request under way: its stage, and how far it is when the stage says ({@code total} > 0). */
  record Running(long seq, String stage, long elapsedMs, long done, long total) implements ProgressAnswer {}

  /** What the client's current request is doing. */
  ProgressAnswer progress(String client) {
    Job job = client == null ? null : latest.get(client);
    if (job == null || job.finished) {
      return new Idle();
    }
    job.lastPoll = System.nanoTime();
    return new Running(job.seq, job.stage, (System.nanoTime() - job.started) / 1_000_000, job.done, job.total);
  }

  /** The user gave up the client's current request: it stops at the engine's next check. */
  boolean cancel(String client) {
    Job job = latest.get(client);
    if (job == null || job.finished) {
      return false;
    }
    job.cancelled = true;
    return true;
  }

  /** One request's computation: its stage, and whether a newer request cancelled it. */
  static final class Job implements Progress {
    private final String client;
    private final long seq;
    private final long started = System.nanoTime();
    private volatile boolean cancelled;
    private volatile boolean finished;
    private volatile String stage = "starting";
    private volatile long done;
    private volatile long total;
    /** When its page last asked for its progress; 0: never (a client that does not poll is never abandoned). */
    private volatile long lastPoll;
    private final long abandonedNanos;
    /** Whether the client of the request that began the job has closed its connection. */
    private final java.util.function.BooleanSupplier clientGone;

    Job(String client, long seq, long abandonedNanos, java.util.function.BooleanSupplier clientGone) {
      this.client = client;
      this.seq = seq;
      this.abandonedNanos = abandonedNanos;
      this.clientGone = clientGone;
    }

    /** Enters a stage, unless the job was cancelled meanwhile. */
    @Override
    public void stage(String name) {
      check();
      stage = name;
      done = 0;
      total = 0;
    }

    @Override
    public void advanced(long done, long total) {
      this.done = done;
      this.total = total;
    }

    /** @throws HttpError 409 when a newer request of the same client cancelled this one */
    @Override
    public void check() {
      if (cancelled) {
        throw new HttpError(409, "request " + seq + " was cancelled (by the user, or by a newer request of the same page)");
      }
      if (clientGone.getAsBoolean()) {
        cancelled = true;
        throw new HttpError(409, "request " + seq + " was abandoned: its client closed the connection");
      }
      long polled = lastPoll;
      if (polled != 0 && System.nanoTime() - polled > abandonedNanos) {
        cancelled = true;
        throw new HttpError(409, "request " + seq + " was abandoned: its page stopped asking for its progress");
      }
    }
  }
}
