package io.queenlake.source.split;

import io.queenlake.format.key.NameEscaping;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceSplit;

/**
 * One queue, the unit a reader is given once the queue's lease is held (docs/ARCHITECTURE.md
 * "Leases and fencing"): where each of its partition incarnations is read from, and the cut of its
 * windows. Partitions discovery finds later reach the reader with the passes. Immutable.
 *
 * @param queue the queue name
 * @param partitions per partition incarnation, where reading resumes
 * @param cut the windows' numbering at the checkpoint, empty for a queue no checkpoint knew
 */
@Internal
public record QueueSplit(String queue, List<PartitionSplit> partitions, Optional<QueueCut> cut)
        implements SourceSplit {

    public QueueSplit {
        Objects.requireNonNull(queue, "queue");
        partitions = List.copyOf(partitions);
        cut = cut == null ? Optional.empty() : cut;
        for (PartitionSplit p : partitions) {
            if (!p.queue().equals(queue)) {
                throw new IllegalArgumentException("split of queue '" + queue + "' holds partition " + p.splitId());
            }
        }
    }

    @Override
    public String splitId() {
        return splitId(queue);
    }

    public static String splitId(String queue) {
        return NameEscaping.escape(queue);
    }
}
