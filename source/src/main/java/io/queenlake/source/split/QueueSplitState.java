package io.queenlake.source.split;

import io.queenlake.format.model.LostRange;
import io.queenlake.source.OpenWindows;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.annotation.Internal;

/**
 * The moving part of a {@link QueueSplit} while a reader owns it, on the task thread: each
 * partition incarnation's next offset, partitions that joined or were retired since, lost ranges
 * waiting for their partition's next record, and the cut the split came with. {@link #toSplit}
 * makes the checkpointed split, with the replay positions of the open windows.
 */
@Internal
public final class QueueSplitState {

    private final String queue;
    private final Map<String, PartitionSplitState> partitions = new LinkedHashMap<>();
    private final Map<String, List<LostRange>> pendingLost = new LinkedHashMap<>();
    /** Retired incarnations, kept while the windows may still hold records of theirs. */
    private final Map<String, PartitionSplit> retired = new LinkedHashMap<>();
    private Optional<QueueCut> cut;

    public QueueSplitState(QueueSplit split) {
        this.queue = split.queue();
        for (PartitionSplit p : split.partitions()) {
            partitions.put(p.splitId(), new PartitionSplitState(p));
        }
        this.cut = split.cut();
        split.cut().ifPresent(c -> c.pendingLost().forEach(this::addLost));
    }

    public String queue() {
        return queue;
    }

    /** The cut the split came with: what the windows continue from. */
    public Optional<QueueCut> cut() {
        return cut;
    }

    /** The state of one partition incarnation, or null when the split does not hold it. */
    public PartitionSplitState partition(String partitionSplitId) {
        return partitions.get(partitionSplitId);
    }

    /** A partition (or a new incarnation) discovery found after the split was made. */
    public void add(PartitionSplit partition) {
        partitions.putIfAbsent(partition.splitId(), new PartitionSplitState(partition));
    }

    /**
     * An incarnation that is never read again; {@code lost}, its offsets not read, rides on the
     * partition's next record.
     */
    public void retire(String partitionSplitId, List<LostRange> lost) {
        PartitionSplitState gone = partitions.remove(partitionSplitId);
        if (gone != null) {
            retired.put(partitionSplitId, gone.toSplit());
        }
        lost.forEach(this::addLost);
    }

    /** The lost ranges that must ride on the next record of {@code partition}, taken once. */
    public List<LostRange> takeLost(String partition) {
        List<LostRange> lost = pendingLost.remove(partition);
        return lost == null ? List.of() : lost;
    }

    public boolean hasPendingLost() {
        return !pendingLost.isEmpty();
    }

    private void addLost(LostRange lost) {
        pendingLost.computeIfAbsent(lost.partition(), p -> new ArrayList<>()).add(lost);
    }

    /**
     * The split to checkpoint. With {@code windows} (the chained windows' cut of this queue), each
     * partition incarnation with open records is read again from its oldest open record, and the
     * cut is the windows'; without, from where reading stopped, carrying the cut it came with.
     */
    public QueueSplit toSplit(Optional<OpenWindows.Snapshot> windows) {
        List<PartitionSplit> out = new ArrayList<>(partitions.size());
        for (PartitionSplitState p : partitions.values()) {
            PartitionSplit split = p.toSplit();
            Long firstOpen = windows.map(w -> w.firstOpenOffsets().get(split.splitId())).orElse(null);
            out.add(firstOpen == null ? split : split.withNextOffset(firstOpen));
        }
        // A retired incarnation with records still open stays in the split from its oldest open record:
        // a restore cannot read it again (its name now answers with its successor), so the reader retires
        // it at once and those records become a lost range, never a silent gap.
        for (Iterator<Map.Entry<String, PartitionSplit>> it = retired.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, PartitionSplit> e = it.next();
            Long firstOpen = windows.map(w -> w.firstOpenOffsets().get(e.getKey())).orElse(null);
            if (firstOpen == null) {
                it.remove();
            } else {
                out.add(e.getValue().withNextOffset(firstOpen));
            }
        }
        // The windows' lost ranges ride on their open records; the cut this split came with had its
        // own moved into pendingLost when it was taken, and those emitted since must not come again.
        Optional<QueueCut> carried = windows.map(OpenWindows.Snapshot::cut).or(() -> cut);
        List<LostRange> lost = new ArrayList<>();
        windows.ifPresent(w -> lost.addAll(w.cut().pendingLost()));
        pendingLost.values().forEach(lost::addAll);
        if (carried.isEmpty() && lost.isEmpty()) {
            return new QueueSplit(queue, out, carried);
        }
        QueueCut base = carried.orElse(new QueueCut(0, Long.MIN_VALUE, Long.MIN_VALUE, List.of(), List.of()));
        return new QueueSplit(queue, out,
                Optional.of(new QueueCut(base.k(), base.lastEnd(), base.pointerEnd(), base.closedPositions(), lost)));
    }
}
