package org.ocelotl.analysis;

/**
 * What the analysis service tells its caller while it works, and where it learns that the
 * caller no longer wants the answer (the web page asked something newer).
 */
public interface Progress {
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
  void check();
}
