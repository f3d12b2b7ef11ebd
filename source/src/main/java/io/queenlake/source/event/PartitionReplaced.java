package io.queenlake.source.event;

import io.queenlake.source.split.PartitionSplit;
import java.util.Objects;
import org.apache.flink.api.connector.source.SourceEvent;

/**
 * Enumerator to reader: discovery found a new incarnation of a partition, so the old incarnation's
 * split can never be read again (its name now reads the new one). Sent to the old split's owner
 * before the new split is assigned; a reader that does not own {@link #oldSplitId()} ignores it.
 *
 * <p>The reader finishes the old split and reports its unread offsets up to {@link #lastOffset()}
 * as lost, on the first record of the new incarnation (docs/ARCHITECTURE.md "Time").
 *
 * @param queue the queue
 * @param partition the partition name both incarnations share
 * @param oldPartitionId the replaced incarnation's id
 * @param lastOffset the old incarnation's last offset the enumerator saw ({@code -1} when it was
 *     empty): nothing beyond it was ever written to the old incarnation as far as discovery knows
 * @param newPartitionId the incarnation that replaces it
 */
public record PartitionReplaced(
        String queue, String partition, String oldPartitionId, long lastOffset, String newPartitionId)
        implements SourceEvent {

    private static final long serialVersionUID = 1L;

    public PartitionReplaced {
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(partition, "partition");
        Objects.requireNonNull(oldPartitionId, "oldPartitionId");
        Objects.requireNonNull(newPartitionId, "newPartitionId");
    }

    /** The split id of the replaced incarnation, as {@code PartitionSplit#splitId()} renders it. */
    public String oldSplitId() {
        return PartitionSplit.splitId(queue, partition, oldPartitionId);
    }
}
