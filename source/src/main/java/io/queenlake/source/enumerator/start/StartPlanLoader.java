package io.queenlake.source.enumerator.start;

import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.kv.CommitPointers;
import io.queenlake.broker.kv.Intents;
import io.queenlake.format.manifest.CheckpointDoc;
import io.queenlake.format.manifest.Committed;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads, for queues first found without Flink state, the commit pointer from KV and where each
 * partition continues after it ({@link ResumePositionsReader}: the newest bucket checkpoint at or
 * below it and the manifests since), or, without a pointer, an open intent of window 1. Blocking I/O: runs off the coordinator thread. Broker failures
 * propagate as {@code QueenException}; an undecodable pointer is an
 * {@link io.queenlake.broker.kv.UnreadableDocumentException} (the job must not guess where a queue continues).
 */
public final class StartPlanLoader {

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
        pointers.readAll(queues).forEach((queue, observed) -> plans.put(queue,
                observed.pointer().map(committed -> withPointer(queue, committed)).orElseGet(() -> noPointer(queue))));
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

    private StartPlan withPointer(String queue, Committed committed) {
        Map<String, CheckpointDoc.Position> positions = resume.map(r -> r.after(queue, committed.k())).orElse(Map.of());
        LOG.info("queue {}: commit pointer k={} tEnd={}; {} resume positions",
                queue, committed.k(), committed.tEnd(), positions.size());
        return new StartPlan(Optional.of(committed), positions);
    }
}
