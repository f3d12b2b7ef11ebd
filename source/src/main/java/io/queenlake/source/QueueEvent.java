package io.queenlake.source;

import org.apache.flink.annotation.PublicEvolving;

/**
 * What QueenSource emits, in order per queue: {@link QueueStart} once when a reader takes the
 * queue's split, then its {@link QueueRecord}s and {@link QueueFrontier}s. The windows chained to
 * the source close a queue's windows on that queue's own frontier only (docs/ARCHITECTURE.md
 * "Time", "Windows").
 */
@PublicEvolving
public sealed interface QueueEvent permits QueueStart, QueueRecord, QueueFrontier {

    /** The queue the event belongs to. */
    String queue();
}
