package org.ocelotl.store;

/** Receives the chunks of a scan one after another, in the same reused columns. */
@FunctionalInterface
public interface ChunkVisitor<C extends Columns> {
  void visit(C columns);
}
