package io.queenlake.source;

import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;

/**
 * The queue's broker-time frontier rose to {@code frontierMicros}: every record of the queue
 * stamped at or below it was emitted before this event, and none will follow (the minimum over
 * the queue's partitions, docs/ARCHITECTURE.md "Time"). Frontiers of one queue never go back.
 */
@PublicEvolving
public record QueueFrontier(String queue, long frontierMicros) implements QueueEvent {

    public QueueFrontier {
        Objects.requireNonNull(queue, "queue");
    }
}
