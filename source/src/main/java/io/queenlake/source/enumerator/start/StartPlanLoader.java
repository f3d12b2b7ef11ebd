package io.queenlake.source.enumerator.start;

import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.kv.CommitPointers;
import io.queenlake.broker.kv.Intents;
import io.queenlake.broker.kv.ObservedPointer;
import io.queenlake.format.manifest.CheckpointDoc;
import io.queenlake.format.manifest.Committed;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads, for queues first found without Flink state, the commit pointer from KV and where each
 * partition continues after it ({@link ResumePositionsReader}: the newest bucket checkpoint at or
 * below it and the manifests since), or, without a pointer, an open intent of window 1. Blocking I/O: runs off the coordinator thread. Broker failures
 * propagate as {@code QueenException}; an undecodable pointer is an
 * {@link io.queenlake.broker.kv.UnreadableDocumentException} (the job must not guess where a queue continues).
 */
public final class StartPlanLoader implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(StartPlanLoader.class);

    private final CommitPointers pointers;
    private final Intents intents;
    private final Optional<ResumePositionsReader> resume;

    /** {@code lakeRoot} null reads nothing from the bucket: a pointer then starts at its tEnd. */
    public StartPlanLoader(QueenClient client, String sink, String tenant, String lakeRoot) {
        this.pointers = new CommitPointers(client, sink);
        this.intents = new Intents(client, sink);
        this.resume = lakeRoot == null || lakeRoot.isBlank()
                ? Optional.empty()
                : Optional.of(new ResumePositionsReader(LakeRoot.parse(lakeRoot), tenant));
    }

    public Map<String, StartPlan> load(List<String> queues) {
        Map<String, StartPlan> plans = new LinkedHashMap<>();
        Map<String, CompletableFuture<Map<String, CheckpointDoc.Position>>> reading = new LinkedHashMap<>();
        Map<String, ObservedPointer> observed = pointers.readAll(queues);
        // Every queue's bucket reads at once: a start without state over many queues is one wait, not one per queue.
        observed.forEach((queue, o) -> o.pointer().ifPresent(committed -> reading.put(queue,
                resume.map(r -> r.after(queue, committed.k())).orElse(CompletableFuture.completedFuture(Map.of())))));
        observed.forEach((queue, o) -> plans.put(queue, o.pointer()
                .map(committed -> withPointer(queue, committed, reading.get(queue)))
                .orElseGet(() -> noPointer(queue))));
        return plans;
    }

    /** A queue never committed, unless a crashed run left the intent of its window 1 open. */
    private StartPlan noPointer(String queue) {
        return intents.read(queue).openAbove(0).map(intent -> {
            LOG.info("queue {}: no commit pointer, but the intent of window 1 [{}, {}) is open: reading from its start",
                    queue, intent.tStart(), intent.tEnd());
            return StartPlan.openIntent(intent.tStart());
        }).orElseGet(StartPlan::noPointer);
    }

    private StartPlan withPointer(String queue, Committed committed,
            CompletableFuture<Map<String, CheckpointDoc.Position>> reading) {
        Map<String, CheckpointDoc.Position> positions;
        try {
            positions = reading.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the resume positions of queue '" + queue + "'", e);
        } catch (ExecutionException e) {
            // Nothing here is needed for correctness: the pointer alone still starts the queue exactly at tEnd.
            LOG.warn("queue {}: could not read its resume positions from the bucket ({}); starting from the commit"
                    + " pointer's tEnd", queue, e.getCause().toString());
            positions = Map.of();
        }
        LOG.info("queue {}: commit pointer k={} tEnd={}; {} resume positions",
                queue, committed.k(), committed.tEnd(), positions.size());
        return new StartPlan(Optional.of(committed), positions);
    }

    /** Stops the bucket reads still queued. */
    @Override
    public void close() {
        resume.ifPresent(ResumePositionsReader::close);
    }
}
