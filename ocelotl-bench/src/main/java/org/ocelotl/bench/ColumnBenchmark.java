package org.ocelotl.bench;

import it.unimi.dsi.fastutil.doubles.DoubleArrayList;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.ocelotl.primitive.DoubleColumn;
import org.ocelotl.primitive.IntColumn;
import org.ocelotl.primitive.LongIntMap;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The readers' growable columns and long → int map ({@code org.ocelotl.primitive}) against
 * fastutil's ({@code IntArrayList}, {@code DoubleArrayList}, {@code Long2IntOpenHashMap}), as the
 * readers use them: 1 M records appended (from an empty column, so the doublings count) then read
 * back by index; 100 k seeded track ids put, then 1 M look-ups (nine in ten present).
 */
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgs = {"-Xmx2g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ColumnBenchmark {
  static final int RECORDS = 1_000_000;
  static final int KEYS = 100_000;

  private long[] keys;
  private long[] lookups;

  @Setup
  public void setUp() {
    SplittableRandom random = new SplittableRandom(2024);
    keys = new long[KEYS];
    for (int i = 0; i < KEYS; i++) {
      keys[i] = random.nextLong();
    }
    lookups = new long[RECORDS];
    for (int i = 0; i < RECORDS; i++) {
      lookups[i] = random.nextInt(10) == 0 ? random.nextLong() : keys[random.nextInt(KEYS)];
    }
  }

  @Benchmark
  public double columns() {
    IntColumn producer = new IntColumn();
    DoubleColumn time = new DoubleColumn();
    for (int i = 0; i < RECORDS; i++) {
      producer.add(i & 1023);
      time.add(i * 0.5);
    }
    double sum = 0;
    for (int i = 0; i < producer.size(); i++) {
      sum += producer.get(i) + time.get(i);
    }
    return sum;
  }

  @Benchmark
  public double fastutilLists() {
    IntArrayList producer = new IntArrayList();
    DoubleArrayList time = new DoubleArrayList();
    for (int i = 0; i < RECORDS; i++) {
      producer.add(i & 1023);
      time.add(i * 0.5);
    }
    double sum = 0;
    for (int i = 0; i < producer.size(); i++) {
      sum += producer.getInt(i) + time.getDouble(i);
    }
    return sum;
  }

  @Benchmark
  public long longIntMap() {
    LongIntMap map = new LongIntMap();
    for (int i = 0; i < KEYS; i++) {
      map.put(keys[i], i);
    }
    long sum = 0;
    for (long key : lookups) {
      sum += map.get(key);
    }
    return sum;
  }

  @Benchmark
  public long fastutilMap() {
    Long2IntOpenHashMap map = new Long2IntOpenHashMap();
    map.defaultReturnValue(LongIntMap.ABSENT);
    for (int i = 0; i < KEYS; i++) {
      map.put(keys[i], i);
    }
    long sum = 0;
    for (long key : lookups) {
      sum += map.get(key);
    }
    return sum;
  }
}
