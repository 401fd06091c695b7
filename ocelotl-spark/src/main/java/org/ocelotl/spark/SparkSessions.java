package org.ocelotl.spark;

import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;

/** The jobs' Spark session: the one under way (a test's, spark-submit's), else a new one on {@code --master}. */
final class SparkSessions {
  /** Whether this process started a session, which {@link SparkMain#main} stops before exiting. */
  private static volatile boolean started;

  private SparkSessions() {}

  static SparkSession session(String appName, SparkOptions options) {
    SparkSession.Builder builder = SparkSession.builder().appName(appName);
    if (options.master != null) {
      builder.master(options.master);
    } else if (SparkSession.getActiveSession().isEmpty() && !new SparkConf().contains("spark.master")) {
      throw new IllegalArgumentException("no Spark master: give --master 'local[N]' (N cores of this machine) or the "
          + "cluster's URL, or run the jar with spark-submit --master");
    }
    started = true;
    return builder.getOrCreate();
  }

  /** Stops the session this process started, if any. */
  static void stopStarted() {
    if (started) {
      SparkSession.getActiveSession().foreach(session -> {
        session.stop();
        return null;
      });
    }
  }
}
