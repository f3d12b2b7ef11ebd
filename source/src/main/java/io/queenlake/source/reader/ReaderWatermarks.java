package io.queenlake.source.reader;

import io.queenlake.source.QueueFrontier;
import io.queenlake.source.event.PassCompleted;
import io.queenlake.source.metrics.QueenSourceMetrics;
import io.queenlake.source.split.PartitionSplit;
import io.queenlake.source.watermark.Frontier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Each queue's {@link Frontier} on the task thread, and when the reader emits what they promise:
 * a {@link QueueFrontier} for every queue whose frontier rose (it alone closes that queue's
 * windows), and the Flink watermark, the minimum over the queues, for the web UI and event time
 * downstream (it closes nothing). Records advance a queue's frontier as they are emitted (never as
 * they are fetched), passes and partitions joining or leaving as they happen; the frontiers are
 * recomputed at most every {@value #RECOMPUTE_EVERY_MS} ms while records stream (a walk over the
 * partitions) and at once when the reader runs dry. What it emitted goes to the fetcher thread,
 * which pauses a queue's partitions one window ahead of that queue's frontier.
 */
final class ReaderWatermarks {

    static final long RECOMPUTE_EVERY_MS = 10;

    private final long guardMicros;
    private final PassExchange exchange;
    private final QueenSourceMetrics metrics;
    private final Map<String, Frontier> queues = new LinkedHashMap<>();
    private final Map<String, Long> emittedFrontiers = new HashMap<>();
    /** Queues whose QueueStart went out; no frontier of a queue precedes it. */
    private final java.util.Set<String> started = new java.util.HashSet<>();
    private long passSafeTime = Long.MIN_VALUE;
    /** Per queue, the partition incarnations its split state holds (the split's, then those that joined). */
    private final Map<String, Set<String>> held = new HashMap<>();
    /**
     * Per queue, incarnations a pass listed that have not joined the split yet: they hold the
     * queue's frontier from the pass on, since their records may be stamped below its safeTime.
     */
    private final Map<String, Set<String>> joining = new HashMap<>();
    /** The newest pass, for a queue split that arrives after it. */
    private PassCompleted lastPass;
    private long emitted = Long.MIN_VALUE;
    private boolean dirty;
    private long lastComputedNanos = System.nanoTime();

    /** What to emit now: queue frontiers that rose, and the Flink watermark if it rose. */
    record Advance(List<QueueFrontier> frontiers, OptionalLong watermarkMillis) {
        static final Advance NONE = new Advance(List.of(), OptionalLong.empty());
    }

    ReaderWatermarks(long guardMicros, PassExchange exchange, QueenSourceMetrics metrics) {
        this.guardMicros = guardMicros;
        this.exchange = exchange;
        this.metrics = metrics;
    }

    /**
     * A queue split joins this reader with its partitions, and the partitions the newest pass lists
     * for it (they join the split as soon as the fetcher takes it).
     */
    void addQueue(String queue, List<PartitionSplit> partitions) {
        Frontier frontier = new Frontier(guardMicros);
        partitions.forEach(p -> frontier.addSplit(p.splitId(), p.nextOffset()));
        queues.put(queue, frontier);
        held.put(queue, new HashSet<>(partitions.stream().map(PartitionSplit::splitId).toList()));
        joining.remove(queue);
        if (lastPass != null) {
            applyPass(queue, frontier, lastPass);
        }
        dirty = true;
    }

    /** The queue's QueueStart was emitted: its frontiers may follow. */
    void started(String queue) {
        started.add(queue);
        dirty = true;
    }

    void addPartition(String queue, PartitionSplit partition) {
        queues.get(queue).addSplit(partition.splitId(), partition.nextOffset());
        held.get(queue).add(partition.splitId());
        forgetJoiner(queue, partition.splitId());
        dirty = true;
    }

    void removePartition(String queue, String partitionSplitId) {
        queues.get(queue).removeSplit(partitionSplitId);
        held.get(queue).remove(partitionSplitId);
        forgetJoiner(queue, partitionSplitId);
        dirty = true;
    }

    private void forgetJoiner(String queue, String partitionSplitId) {
        Set<String> waiting = joining.get(queue);
        if (waiting != null) {
            waiting.remove(partitionSplitId);
        }
    }

    void onPass(PassCompleted pass) {
        passSafeTime = Math.max(passSafeTime, pass.safeTimeMicros());
        lastPass = pass;
        for (Map.Entry<String, Frontier> e : queues.entrySet()) {
            applyPass(e.getKey(), e.getValue(), pass);
        }
        metrics.onPass(pass.safeTimeMicros());
        dirty = true;
    }

    /**
     * A pass's rows for one queue. A partition it lists that the queue's frontier does not hold yet
     * holds it from now, at its start offset: the fetcher reads it from this pass on, and its
     * records may be stamped at or below this pass's safeTime, so the queue's frontier must not
     * pass them before they are emitted ({@link ReadItem.Added} finds it already there).
     */
    private void applyPass(String queue, Frontier frontier, PassCompleted pass) {
        Map<String, Long> lastOffsets = new HashMap<>();
        List<PassCompleted.PassPartition> rows = pass.queues().get(queue);
        if (rows != null) {
            for (PassCompleted.PassPartition row : rows) {
                lastOffsets.put(PartitionSplit.splitId(queue, row.partition(), row.partitionId()), row.lastOffset());
            }
        }
        Set<String> waiting = joining.computeIfAbsent(queue, q -> new HashSet<>());
        Set<String> holding = held.get(queue);
        // A joiner of an earlier pass that this one no longer lists is never read (the fetcher goes by the newest pass).
        for (Iterator<String> it = waiting.iterator(); it.hasNext(); ) {
            String splitId = it.next();
            if (!lastOffsets.containsKey(splitId)) {
                frontier.removeSplit(splitId);
                it.remove();
            }
        }
        if (rows != null) {
            for (PassCompleted.PassPartition row : rows) {
                String splitId = PartitionSplit.splitId(queue, row.partition(), row.partitionId());
                if (!holding.contains(splitId) && waiting.add(splitId)) {
                    frontier.addSplit(splitId, row.startOffset());
                }
            }
        }
        frontier.onPass(passSafeTime, lastOffsets);
    }

    /** A record was emitted (or dropped below the split's start), or a partition moved without one. */
    void onRead(String queue, String partitionSplitId, long tsMicros, long nextOffset) {
        queues.get(queue).onRecords(partitionSplitId, tsMicros, nextOffset);
        dirty = true;
    }

    /** Whether a frontier changed since they were last computed. */
    boolean pending() {
        return dirty;
    }

    /**
     * What to emit now; {@code streaming} says records are still flowing, so the frontiers may be
     * walked less often.
     */
    Advance advance(boolean streaming) {
        if (!dirty) {
            return Advance.NONE;
        }
        long now = System.nanoTime();
        if (streaming && now - lastComputedNanos < RECOMPUTE_EVERY_MS * 1_000_000L) {
            return Advance.NONE;
        }
        dirty = false;
        lastComputedNanos = now;
        List<QueueFrontier> rose = new ArrayList<>(1);
        long minimum = queues.isEmpty() && passSafeTime != Long.MIN_VALUE ? passSafeTime - guardMicros : Long.MAX_VALUE;
        boolean allKnown = !queues.isEmpty() || passSafeTime != Long.MIN_VALUE;
        for (Map.Entry<String, Frontier> e : queues.entrySet()) {
            OptionalLong f = started.contains(e.getKey()) ? e.getValue().frontierMicros() : OptionalLong.empty();
            Long before = emittedFrontiers.get(e.getKey());
            if (f.isPresent() && (before == null || f.getAsLong() > before)) {
                emittedFrontiers.put(e.getKey(), f.getAsLong());
                rose.add(new QueueFrontier(e.getKey(), f.getAsLong()));
            }
            Long latest = emittedFrontiers.get(e.getKey());
            if (latest == null) {
                allKnown = false;
            } else {
                minimum = Math.min(minimum, latest);
            }
        }
        if (!rose.isEmpty()) {
            exchange.publishFrontiers(emittedFrontiers);
        }
        OptionalLong watermark = OptionalLong.empty();
        if (allKnown) {
            long millis = Frontier.toWatermarkMillis(minimum);
            if (millis > emitted) {
                emitted = millis;
                metrics.onWatermark(emitted);
                watermark = OptionalLong.of(millis);
            }
        }
        return rose.isEmpty() && watermark.isEmpty() ? Advance.NONE : new Advance(rose, watermark);
    }

    long emitted() {
        return emitted;
    }

    /** The queue's last emitted frontier, empty before the first. */
    OptionalLong frontierMicros(String queue) {
        Long f = emittedFrontiers.get(queue);
        return f == null ? OptionalLong.empty() : OptionalLong.of(f);
    }
}
