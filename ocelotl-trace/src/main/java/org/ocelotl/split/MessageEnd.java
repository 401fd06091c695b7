package org.ocelotl.split;

import java.io.Serializable;

/**
 * One side of a message ({@link MessageSplit#ends}), ordered as the sequential reader meets the
 * sides of its channel.
 */
public interface MessageEnd<E> extends Comparable<E>, Serializable {
  /** Equal for the ends of one channel: the exchange groups by it. */
  int channelHash();
}
