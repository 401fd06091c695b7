package org.ocelotl.analysis;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The last few results of an expensive computation, by key, least recently used out first.
 * Two requests for the same key compute it once: the second waits for the first. A waiting
 * request whose progress is cancelled stops waiting. A computation stops when the request that
 * runs it is cancelled (its progress says so to the engine); a request that was waiting for it
 * then computes it itself.
 */
final class Memo<K, V> {
  private final int capacity;
  private final LinkedHashMap<K, FutureTask<V>> entries = new LinkedHashMap<>(16, 0.75f, true);

  Memo(int capacity) {
    this.capacity = capacity;
  }

  V get(K key, Callable<V> compute, Progress progress) throws IOException {
    while (true) {
      FutureTask<V> task;
      boolean mine = false;
      synchronized (this) {
        task = entries.get(key);
        if (task == null) {
          task = new FutureTask<>(compute);
          entries.put(key, task);
          mine = true;
          trim();
        }
      }
      if (mine) {
        task.run();
      }
      try {
        return await(task, progress);
      } catch (ExecutionException e) {
        synchronized (this) {
          entries.remove(key, task); // a failure is not kept: the next request tries again
        }
        if (mine) {
          throw rethrown(e.getCause());
        }
        // Another request's computation failed, perhaps because that request was cancelled:
        // this one still wants the answer, and computes it itself (a real error comes back then).
        progress.check();
      }
    }
  }

  private V await(FutureTask<V> task, Progress progress) throws ExecutionException, IOException {
    while (true) {
      try {
        return task.get(100, TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        progress.check();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("interrupted while waiting for a computation");
      }
    }
  }

  /** The computation's own exception, unchecked ones as they are, checked ones as I/O errors. */
  private static IOException rethrown(Throwable cause) {
    if (cause instanceof IOException io) {
      return io;
    }
    if (cause instanceof RuntimeException unchecked) {
      throw unchecked;
    }
    if (cause instanceof Error error) {
      throw error;
    }
    return new IOException(cause);
  }

  private void trim() {
    var it = entries.entrySet().iterator();
    while (entries.size() > capacity && it.hasNext()) {
      Map.Entry<K, FutureTask<V>> eldest = it.next();
      if (eldest.getValue().isDone()) {
        it.remove();
      } else {
        break; // still being computed for someone: keep it until it is done
      }
    }
  }

  /** Whether the value of {@code key} is kept, computed (a computation under way is not). */
  synchronized boolean has(K key) {
    FutureTask<V> task = entries.get(key);
    return task != null && task.isDone();
  }

  synchronized void clear() {
    entries.clear();
  }
}
