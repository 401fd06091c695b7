package org.ocelotl.analysis;

import org.ocelotl.aggregation.Work;

/**
 * What the analysis service tells its caller while it works (its stage, and within a stage how
 * far the engine has come), and where it learns that the caller no longer wants the answer (the
 * web page asked something newer, or the user pressed Cancel): the engine checks between units of
 * work and stops.
 */
public interface Progress extends Work {
  /** Does nothing and is never cancelled: the command line's one-shot requests. */
  Progress NONE = new Progress() {
    @Override
    public void stage(String name) {}

    @Override
    public void check() {}
  };

  /** Enters a stage ("building the model", …); throws, as {@link #check} does, if cancelled. */
  void stage(String name);

  /** Throws an unchecked exception of the caller's choice when the work is no longer wanted. */
  @Override
  void check();
}
