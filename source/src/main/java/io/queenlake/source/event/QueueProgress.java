package io.queenlake.source.event;

import java.io.Serializable;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceEvent;

/**
 * Reader to enumerator, when a checkpoint completed: per queue of that reader, how far the
 * checkpoint closed it. Every record stamped below {@code closedThroughMicros} is in a window
 * numbered {@code k} or lower; the enumerator carries it in the queue's lease, where
 * {@code completeThrough} and the lag are read from (docs/ARCHITECTURE.md "Lag").
 */
@Internal
public record QueueProgress(Map<String, Closed> queues) implements SourceEvent {

    private static final long serialVersionUID = 1L;

    public QueueProgress {
        queues = Map.copyOf(queues);
    }

    /** One queue's progress at the checkpoint. */
    public record Closed(long k, long closedThroughMicros) implements Serializable {
        private static final long serialVersionUID = 1L;
    }
}
