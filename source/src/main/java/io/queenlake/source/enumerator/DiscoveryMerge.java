package io.queenlake.source.enumerator;

import io.queenlake.broker.client.EntryError;
import io.queenlake.broker.client.PartitionInfo;
import io.queenlake.source.StartMode;
import io.queenlake.source.enumerator.start.StartDecision;
import io.queenlake.source.enumerator.start.StartPlan;
import io.queenlake.source.split.QueueSplit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes one discovery run's answer into what the enumerator knows, for every queue it asked and
 * holds now: a queue's first full answer decides where it starts (or refuses it) and makes its one
 * split, to wait for its reader; every answer moves the book's partitions on and names the
 * incarnations it replaced. Coordinator thread only.
 */
final class DiscoveryMerge {

    // Its lines keep the enumerator's logger, as before the merge had a class of its own.
    private static final Logger LOG = LoggerFactory.getLogger(QueenSplitEnumerator.class);

    private final StartMode start;
    private final WantedQueues wanted;
    private final PartitionBook book;
    private final RefusedQueues refused;
    private final Assignments assignments;
    private final EnumeratorMetrics metrics;
    /** The current parallelism, read when a new split needs a reader. */
    private final IntSupplier readers;
    /** Queues said not to exist on the broker yet, each said once until it answers. */
    private final Set<String> reported = new HashSet<>();

    DiscoveryMerge(StartMode start, WantedQueues wanted, PartitionBook book, RefusedQueues refused,
            Assignments assignments, EnumeratorMetrics metrics, IntSupplier readers) {
        this.start = start;
        this.wanted = wanted;
        this.book = book;
        this.refused = refused;
        this.assignments = assignments;
        this.metrics = metrics;
        this.readers = readers;
    }

    /** Merges every held queue the pass answered for; returns the queues it covered. */
    Set<String> merge(DiscoveryOutcome outcome) {
        DiscoveryInput input = outcome.input();
        Set<String> full = new HashSet<>(input.fullQueues());
        List<String> asked = new ArrayList<>(input.fullQueues());
        asked.addAll(input.incrementalQueues());
        Set<String> covered = new HashSet<>();
        for (String queue : asked) {
            if (!wanted.mine(queue)) {
                continue;
            }
            EntryError entryError = outcome.errors().get(queue);
            if (entryError != null && entryError != EntryError.UNKNOWN_TOPIC_OR_PARTITION) {
                LOG.warn("queue '{}': discovery answered {}; the pass is asked again", queue, entryError);
                continue;
            }
            if (entryError != null && reported.add(queue)) {
                LOG.info("queue '{}' does not exist on the broker yet; its partitions are read when they appear", queue);
            } else if (entryError == null) {
                reported.remove(queue);
            }
            Optional<StartPlan> firstPass = Optional.empty();
            if (!book.decided(queue)) {
                StartPlan plan = outcome.plans().get(queue);
                if (plan == null || !full.contains(queue)) {
                    continue; // asked before its lease came: the next run asks it in full
                }
                if (plan.refusal().isPresent()) {
                    refused.refuse(queue, plan.refusal().get(), System.currentTimeMillis());
                    continue;
                }
                refused.clear(queue);
                StartDecision decision = plan.decide(start, outcome.safeTimeMicros());
                book.decide(queue, decision);
                LOG.info("queue '{}' starts from {}", queue, decision);
                firstPass = Optional.of(plan);
            }
            List<PartitionInfo> rows = outcome.partitions().getOrDefault(queue, List.of());
            PartitionBook.Merge merged = book.merge(queue, rows, firstPass);
            for (PartitionBook.Replacement r : merged.replacements()) {
                LOG.info("queue '{}' partition '{}': incarnation {} (last offset {}) was replaced by {}",
                        queue, r.partition(), r.oldId(), r.oldLastOffset(), r.newId());
                metrics.incarnationReplaced(queue);
            }
            if (firstPass.isPresent()) {
                // One split per queue, made once from its first complete pass; later partitions ride on the passes.
                assignments.addNew(new QueueSplit(queue, merged.firstSplits(), firstPass.get().cut()),
                        readers.getAsInt(), book.queuesByOwner());
            }
            covered.add(queue);
        }
        return covered;
    }
}
