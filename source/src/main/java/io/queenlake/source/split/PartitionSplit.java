package io.queenlake.source.split;

import io.queenlake.format.key.NameEscaping;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceSplit;

/**
 * One incarnation of one queue partition, and where reading it resumes. Immutable; its moving twin
 * is {@link PartitionSplitState}.
 *
 * @param queue the queue name
 * @param partition the partition name
 * @param partitionId the incarnation id from discovery; a re-created partition is a new split
 * @param nextOffset the next offset to read, or {@link #SEEK_BY_TIME} when the first offset must
 *     be found from {@code skipBelowMicros} with {@code fetch/offsets}
 * @param skipBelowMicros records stamped below this are never emitted (the commit pointer's
 *     {@code tEnd} on a restore, {@code safeTime + 1} for {@code start=latest});
 *     {@link Long#MIN_VALUE} for none
 */
@Internal
public record PartitionSplit(
        String queue, String partition, String partitionId, long nextOffset, long skipBelowMicros)
        implements SourceSplit {

    /** {@code nextOffset} value meaning "seek to the first offset at or after skipBelowMicros". */
    public static final long SEEK_BY_TIME = -1L;

    public PartitionSplit {
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(partition, "partition");
        Objects.requireNonNull(partitionId, "partitionId");
        if (nextOffset < SEEK_BY_TIME) {
            throw new IllegalArgumentException(
                    "split " + queue + "/" + partition + " has next offset " + nextOffset + "; offsets are >= 0");
        }
        if (nextOffset == SEEK_BY_TIME && skipBelowMicros == Long.MIN_VALUE) {
            throw new IllegalArgumentException(
                    "split " + queue + "/" + partition + " must seek by time but has no time to seek to");
        }
    }

    /** Reads one incarnation from an offset, dropping records stamped below {@code skipBelowMicros}. */
    public static PartitionSplit atOffset(
            String queue, String partition, String partitionId, long nextOffset, long skipBelowMicros) {
        return new PartitionSplit(queue, partition, partitionId, nextOffset, skipBelowMicros);
    }

    /** Reads one incarnation from the first record stamped at or after {@code fromMicros}. */
    public static PartitionSplit atTime(String queue, String partition, String partitionId, long fromMicros) {
        return new PartitionSplit(queue, partition, partitionId, SEEK_BY_TIME, fromMicros);
    }

    /** Queue, partition and incarnation, escaped so that no name can run into another. */
    @Override
    public String splitId() {
        return splitId(queue, partition, partitionId);
    }

    public static String splitId(String queue, String partition, String partitionId) {
        return NameEscaping.escape(queue) + "/" + NameEscaping.escape(partition) + "@" + partitionId;
    }

    public boolean needsSeek() {
        return nextOffset == SEEK_BY_TIME;
    }

    public PartitionSplit withNextOffset(long offset) {
        return new PartitionSplit(queue, partition, partitionId, offset, skipBelowMicros);
    }
}
