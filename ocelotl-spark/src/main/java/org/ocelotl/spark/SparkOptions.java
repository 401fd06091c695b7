package org.ocelotl.spark;

import picocli.CommandLine.Option;

/**
 * The options every job takes to find its Spark application: {@code --master} makes the jar run
 * without spark-submit ({@code ./ocelotl-spark}, Spark's jars from Maven on the class path); under
 * spark-submit, its own {@code --master} is the one, and this option is not needed.
 *
 * <p>No Spark type in this class's fields or methods: picocli reflects on them for {@code --help},
 * which runs with Ocelotl's jar alone ({@link SparkSessions} makes the session).
 */
final class SparkOptions {
  @Option(names = "--master", paramLabel = "URL", description = "The Spark master, e.g. 'local[2]' (two cores of this machine), "
      + "spark://HOST:7077, yarn; default: the one spark-submit sets.")
  String master;
}
