package org.ocelotl.trace;

import java.util.ArrayList;
import java.util.List;
import org.ocelotl.model.EventCategory;

/** A sink that keeps everything in lists: for tests of readers on small traces. */
public final class MemoryTrace implements TraceSink {
  public record Producer(int id, String name, String kind, int parent, double created) {}
  public record Type(int id, String name, EventCategory category, String group, String color) {}
  public record State(int producer, int type, double start, double end, int depth) {}
  public record Event(int producer, int type, double time) {}
  public record Variable(int producer, int type, double time, double value) {}
  public record Link(int type, int from, int to, double start, double end, double volume) {}

  public final List<Producer> producers = new ArrayList<>();
  public final List<double[]> producerEnds = new ArrayList<>();
  public final List<Type> types = new ArrayList<>();
  public final List<State> states = new ArrayList<>();
  public final List<Event> events = new ArrayList<>();
  public final List<Variable> variables = new ArrayList<>();
  public final List<Link> links = new ArrayList<>();
  public final List<String> warnings = new ArrayList<>();
  public double start = Double.NaN;
  public double end = Double.NaN;
  public String timeUnit;

  @Override
  public void producer(int id, String name, String kind, int parent, double created) {
    producers.add(new Producer(id, name, kind, parent, created));
  }

  @Override
  public void producerEnd(int id, double destroyed) {
    producerEnds.add(new double[] {id, destroyed});
  }

  @Override
  public void eventType(int id, String name, EventCategory category, String group, String color) {
    types.add(new Type(id, name, category, group, color));
  }

  @Override
  public void state(int producer, int type, double start, double end, int depth, int outer) {
    states.add(new State(producer, type, start, end, depth));
  }

  @Override
  public void event(int producer, int type, double time) {
    events.add(new Event(producer, type, time));
  }

  @Override
  public void variable(int producer, int type, double time, double value) {
    variables.add(new Variable(producer, type, time, value));
  }

  @Override
  public void link(int type, int from, int to, double start, double end, double volume) {
    links.add(new Link(type, from, to, start, end, volume));
  }

  @Override
  public void warning(String message) {
    warnings.add(message);
  }

  @Override
  public void end(double start, double end, String timeUnit) {
    this.start = start;
    this.end = end;
    this.timeUnit = timeUnit;
  }
}
