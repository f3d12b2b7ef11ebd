package io.queenlake.source.split;

import org.apache.flink.annotation.Internal;

/**
 * The moving part of a {@link PartitionSplit} while a reader owns it: the next offset to read.
 * Converts back with {@link #toSplit()} for checkpoints.
 */
@Internal
public final class PartitionSplitState {

    private final PartitionSplit split;
    private long nextOffset;

    public PartitionSplitState(PartitionSplit split) {
        this.split = split;
        this.nextOffset = split.nextOffset();
    }

    public PartitionSplit split() {
        return split;
    }

    public long nextOffset() {
        return nextOffset;
    }

    /** Advances past an emitted record; offsets only ever move forward. */
    public void setNextOffset(long offset) {
        if (offset < nextOffset && nextOffset != PartitionSplit.SEEK_BY_TIME) {
            throw new IllegalStateException("split " + split.splitId() + " cannot move back from offset "
                    + nextOffset + " to " + offset);
        }
        this.nextOffset = offset;
    }

    public PartitionSplit toSplit() {
        return split.withNextOffset(nextOffset);
    }
}
