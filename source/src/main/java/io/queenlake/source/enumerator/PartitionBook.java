package io.queenlake.source.enumerator;

import io.queenlake.broker.client.PartitionInfo;
import io.queenlake.source.enumerator.start.StartDecision;
import io.queenlake.source.enumerator.start.StartPlan;
import io.queenlake.source.event.PassCompleted.PassPartition;
import io.queenlake.source.split.PartitionSplit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Every partition the enumerator knows, per decided queue: the queue's start decision, each
 * partition's current incarnation (and the one it replaced), and whether the queue's split is with
 * a reader. Merging a pass's rows yields the queue's first partitions (on its first pass) and the
 * replaced incarnations; rows of known incarnations only move offsets up, so memory is one entry
 * per partition whatever the number of passes. Pure; coordinator thread.
 */
final class PartitionBook {

    /** A pass's effect on one queue: the splits of its first pass, and the incarnations replaced. */
    record Merge(List<PartitionSplit> firstSplits, List<Replacement> replacements) {}

    /** An incarnation replaced by a newer one. */
    record Replacement(String partition, String oldId, long oldLastOffset, String newId) {}

    private final Map<String, QueueBook> queues = new LinkedHashMap<>();

    static final class QueueBook {
        final StartDecision decision;
        final Map<String, KnownPartition> partitions = new HashMap<>();
        /** The queue's split is with a reader (not pending, not yet made). */
        boolean assigned;
        /** Assigned before a restore with another parallelism: which reader holds it is not known. */
        boolean ownerUnknown;
        /** The reader it was last given to, -1 when none or not known. */
        int owner = -1;

        QueueBook(StartDecision decision) {
            this.decision = decision;
        }

        /** Whether its passes go to every reader (each reads only the queues it holds): its reader is not known. */
        boolean passesToEveryReader() {
            return ownerUnknown || owner < 0;
        }
    }

    /** The queues with a start decision (all of them restored ones after a restore with Flink state). */
    List<String> decidedQueues() {
        return List.copyOf(queues.keySet());
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
     * (checkpoint positions); empty for every later pass, whose new partitions reach the queue's
     * reader with the passes ({@link #passByReader}).
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
                if (firstPass.isPresent()) {
                    splits.add(book.decision.firstPassSplit(queue, row, firstPass.get().position(row.name())));
                }
                book.partitions.put(row.name(), KnownPartition.of(row));
            } else if (known.id.equals(row.id())) {
                known.update(row);
            } else {
                replaced.add(new Replacement(row.name(), known.id, known.lastOffset, row.id()));
                KnownPartition next = KnownPartition.of(row);
                next.replacedId = known.id;
                next.replacedLastOffset = known.lastOffset;
                book.partitions.put(row.name(), next);
            }
        }
        return new Merge(splits, replaced);
    }

    Optional<QueueBook> queue(String queue) {
        return Optional.ofNullable(queues.get(queue));
    }

    Optional<KnownPartition> partition(String queue, String name) {
        QueueBook book = queues.get(queue);
        return book == null ? Optional.empty() : Optional.ofNullable(book.partitions.get(name));
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

    /** How many queue splits each reader was given (known owners only), for spreading new ones. */
    Map<Integer, Integer> queuesByOwner() {
        Map<Integer, Integer> counts = new HashMap<>();
        for (QueueBook book : queues.values()) {
            if (book.owner >= 0) {
                counts.merge(book.owner, 1, Integer::sum);
            }
        }
        return counts;
    }

    /** Whether a pass lists any queue for {@code reader}: one given to it, or one whose reader is not known. */
    boolean holdsQueues(int reader) {
        for (QueueBook book : queues.values()) {
            if (book.assigned && (book.passesToEveryReader() || book.owner == reader)) {
                return true;
            }
        }
        return false;
    }

    /** Every queue and partition as the enumerator's checkpoint keeps them. */
    List<QueenEnumState.QueueEntry> snapshot() {
        List<QueenEnumState.QueueEntry> entries = new ArrayList<>(queues.size());
        queues.forEach((queue, book) -> {
            List<QueenEnumState.PartitionEntry> partitions = new ArrayList<>(book.partitions.size());
            book.partitions.forEach((name, k) -> partitions.add(new QueenEnumState.PartitionEntry(
                    name, k.id, k.lastOffset, k.logStart, k.replacedId, k.replacedLastOffset)));
            entries.add(new QueenEnumState.QueueEntry(queue, book.decision, partitions, book.assigned,
                    book.assigned && book.ownerUnknown));
        });
        return entries;
    }

    /**
     * Takes back a checkpoint's queues; with {@code rescaled} no assigned split's reader is known
     * any more (Flink spreads restored splits over the new readers). Without, the owner is not
     * known either (the checkpoint does not record it), so every reader hears the queue's passes
     * until the queue is assigned again.
     */
    void restore(List<QueenEnumState.QueueEntry> entries, boolean rescaled) {
        for (QueenEnumState.QueueEntry queue : entries) {
            QueueBook book = decide(queue.queue(), queue.start());
            book.assigned = queue.assigned();
            book.ownerUnknown = queue.assigned();
            for (QueenEnumState.PartitionEntry p : queue.partitions()) {
                KnownPartition known = new KnownPartition(p.id(), p.lastOffset(), p.logStart());
                known.replacedId = p.replacedId();
                known.replacedLastOffset = p.replacedLastOffset();
                book.partitions.put(p.name(), known);
            }
        }
    }

    /**
     * Per reader, every current partition of each assigned queue it may hold: a queue whose reader
     * is not known goes to every reader (each reads only the queues it holds).
     */
    Map<Integer, Map<String, List<PassPartition>>> passByReader(Set<Integer> readers) {
        Map<Integer, Map<String, List<PassPartition>>> byReader = new HashMap<>();
        readers.forEach(reader -> byReader.put(reader, new HashMap<>()));
        queues.forEach((queue, book) -> {
            if (!book.assigned) {
                return;
            }
            List<PassPartition> partitions = new ArrayList<>(book.partitions.size());
            book.partitions.forEach((name, known) -> {
                PartitionSplit later = book.decision.laterSplit(queue, name, known.id, known.logStart);
                partitions.add(new PassPartition(name, known.id, known.lastOffset, later.nextOffset(),
                        later.skipBelowMicros(), known.replacedId, known.replacedLastOffset));
            });
            if (book.passesToEveryReader()) {
                byReader.values().forEach(m -> m.put(queue, partitions));
            } else {
                Map<String, List<PassPartition>> m = byReader.get(book.owner);
                if (m != null) {
                    m.put(queue, partitions);
                }
            }
        });
        return byReader;
    }
}
