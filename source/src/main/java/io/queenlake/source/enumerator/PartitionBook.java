package io.queenlake.source.enumerator;

import io.queenlake.broker.client.PartitionInfo;
import io.queenlake.source.enumerator.start.StartDecision;
import io.queenlake.source.enumerator.start.StartPlan;
import io.queenlake.source.event.PartitionReplaced;
import io.queenlake.source.split.PartitionSplit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.ToIntBiFunction;

/**
 * Every partition the enumerator knows, per decided queue: the queue's start decision and each
 * partition's current incarnation. Merging a pass's rows yields the new splits (a new name or a
 * new incarnation) and the replaced incarnations; rows of known incarnations only move offsets up,
 * so memory is one entry per partition whatever the number of passes. Pure; coordinator thread.
 */
final class PartitionBook {

    /** A pass's effect on one queue. */
    record Merge(List<PartitionSplit> newSplits, List<Replacement> replacements) {}

    /** An incarnation replaced by a newer one; {@code ownerUnknown} when the old split's reader is not known. */
    record Replacement(PartitionReplaced event, boolean ownerUnknown) {}

    private final Map<String, QueueBook> queues = new LinkedHashMap<>();

    static final class QueueBook {
        final StartDecision decision;
        final Map<String, KnownPartition> partitions = new HashMap<>();

        QueueBook(StartDecision decision) {
            this.decision = decision;
        }
    }

    boolean decided(String queue) {
        return queues.containsKey(queue);
    }

    Optional<StartDecision> decision(String queue) {
        QueueBook book = queues.get(queue);
        return book == null ? Optional.empty() : Optional.of(book.decision);
    }

    /** Restores or records a queue's start decision; a decided queue keeps its first one. */
    QueueBook decide(String queue, StartDecision decision) {
        return queues.computeIfAbsent(queue, q -> new QueueBook(decision));
    }

    /**
     * Merges one queue's rows. {@code firstPass} carries the plan of the queue's first complete pass
     * (checkpoint positions); empty for every later pass.
     */
    Merge merge(String queue, List<PartitionInfo> rows, Optional<StartPlan> firstPass) {
        QueueBook book = queues.get(queue);
        if (book == null) {
            throw new IllegalStateException("queue '" + queue + "' has no start decision yet");
        }
        List<PartitionSplit> splits = new ArrayList<>();
        List<Replacement> replaced = new ArrayList<>();
        for (PartitionInfo row : rows) {
            KnownPartition known = book.partitions.get(row.name());
            if (known == null) {
                splits.add(firstPass.isPresent()
                        ? book.decision.firstPassSplit(queue, row, firstPass.get().position(row.name()))
                        : book.decision.laterSplit(queue, row));
                book.partitions.put(row.name(), KnownPartition.of(row));
            } else if (known.id.equals(row.id())) {
                known.update(row);
            } else {
                replaced.add(new Replacement(
                        new PartitionReplaced(queue, row.name(), known.id, known.lastOffset, row.id()), known.ownerUnknown));
                splits.add(book.decision.laterSplit(queue, row));
                book.partitions.put(row.name(), KnownPartition.of(row));
            }
        }
        return new Merge(splits, replaced);
    }

    Optional<KnownPartition> partition(String queue, String name) {
        QueueBook book = queues.get(queue);
        return book == null ? Optional.empty() : Optional.ofNullable(book.partitions.get(name));
    }

    /** The partition entry of exactly this split's incarnation, if it is still the current one. */
    Optional<KnownPartition> current(PartitionSplit split) {
        return partition(split.queue(), split.partition()).filter(k -> k.id.equals(split.partitionId()));
    }

    int partitionCount() {
        int n = 0;
        for (QueueBook book : queues.values()) {
            n += book.partitions.size();
        }
        return n;
    }

    int partitionCount(String queue) {
        QueueBook book = queues.get(queue);
        return book == null ? 0 : book.partitions.size();
    }

    /** Every queue and partition as the enumerator's checkpoint keeps them. */
    List<QueenEnumState.QueueEntry> snapshot() {
        List<QueenEnumState.QueueEntry> entries = new ArrayList<>(queues.size());
        queues.forEach((queue, book) -> {
            List<QueenEnumState.PartitionEntry> partitions = new ArrayList<>(book.partitions.size());
            book.partitions.forEach((name, k) -> partitions.add(new QueenEnumState.PartitionEntry(
                    name, k.id, k.lastOffset, k.logStart, k.assigned, k.ownerUnknown)));
            entries.add(new QueenEnumState.QueueEntry(queue, book.decision, partitions));
        });
        return entries;
    }

    /**
     * Takes back a checkpoint's queues; with {@code rescaled} no assigned split's reader is known
     * any more (Flink spreads restored splits over the new readers).
     */
    void restore(List<QueenEnumState.QueueEntry> entries, boolean rescaled) {
        for (QueenEnumState.QueueEntry queue : entries) {
            QueueBook book = decide(queue.queue(), queue.start());
            for (QueenEnumState.PartitionEntry p : queue.partitions()) {
                KnownPartition known = new KnownPartition(p.id(), p.lastOffset(), p.logStart());
                known.assigned = p.assigned();
                known.ownerUnknown = p.assigned() && (p.ownerUnknown() || rescaled);
                book.partitions.put(p.name(), known);
            }
        }
    }

    /**
     * Per reader, the last offset of every assigned split it may hold, by split id: a split whose
     * reader is not known goes to every reader.
     */
    Map<Integer, Map<String, Long>> lastOffsetsByReader(Set<Integer> readers, ToIntBiFunction<String, String> ownerOf) {
        Map<Integer, Map<String, Long>> offsets = new HashMap<>();
        readers.forEach(reader -> offsets.put(reader, new HashMap<>()));
        queues.forEach((queue, book) -> book.partitions.forEach((name, known) -> {
            if (!known.assigned) {
                return;
            }
            String splitId = PartitionSplit.splitId(queue, name, known.id);
            if (known.ownerUnknown) {
                offsets.values().forEach(m -> m.put(splitId, known.lastOffset));
            } else {
                Map<String, Long> m = offsets.get(ownerOf.applyAsInt(queue, name));
                if (m != null) {
                    m.put(splitId, known.lastOffset);
                }
            }
        }));
        return offsets;
    }
}
