package org.ocelotl.export;

/** Shared look of the hatching both writers draw. */
final class Hatching {
  /** Pixels between hatch lines. */
  static final double SPACING = 5;

  private Hatching() {}
}
