package io.queenlake.source.enumerator.start;

import io.queenlake.broker.client.KvAnswer;
import io.queenlake.broker.client.KvOp;
import io.queenlake.broker.client.KvResult;
import io.queenlake.broker.client.KvRow;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.format.manifest.CheckpointDoc;
import io.queenlake.format.manifest.Committed;
import io.queenlake.source.enumerator.SinkKeys;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads, for queues first found without Flink state, the commit pointer from KV and the newest
 * bucket checkpoint at or below it. Blocking I/O: runs off the coordinator thread. Broker failures
 * propagate as {@code QueenException}; an undecodable pointer is an {@link IllegalStateException}
 * (the job must not guess where a queue continues).
 */
public final class StartPlanLoader {

    private static final Logger LOG = LoggerFactory.getLogger(StartPlanLoader.class);

    private final QueenClient client;
    private final SinkKeys keys;
    private final Optional<CheckpointReader> checkpoints;

    /** {@code lakeRoot} null reads no bucket checkpoint: a pointer then starts at its tEnd. */
    public StartPlanLoader(QueenClient client, SinkKeys keys, String tenant, String lakeRoot) {
        this.client = client;
        this.keys = keys;
        this.checkpoints = lakeRoot == null || lakeRoot.isBlank()
                ? Optional.empty()
                : Optional.of(new CheckpointReader(LakeRoot.parse(lakeRoot), tenant));
    }

    public Map<String, StartPlan> load(List<String> queues) {
        Map<String, StartPlan> plans = new LinkedHashMap<>();
        for (int from = 0; from < queues.size(); from += KvOp.MAX_OPS) {
            List<String> batch = queues.subList(from, Math.min(queues.size(), from + KvOp.MAX_OPS));
            List<KvOp> ops = new ArrayList<>(batch.size());
            for (String queue : batch) {
                ops.add(KvOp.get(SinkKeys.NAMESPACE, keys.committed(queue)));
            }
            KvAnswer answer = client.kv(ops);
            if (!(answer instanceof KvAnswer.Results results)) {
                throw new IllegalStateException("the broker at " + client.broker()
                        + " answered a read of commit pointers with a precondition verdict: check QUEEN_URL");
            }
            for (int i = 0; i < batch.size(); i++) {
                String queue = batch.get(i);
                Optional<KvRow> row = ((KvResult.Got) results.get(i)).row();
                plans.put(queue, row.isEmpty() ? StartPlan.noPointer() : withPointer(queue, row.get()));
            }
        }
        return plans;
    }

    private StartPlan withPointer(String queue, KvRow row) {
        Committed committed;
        try {
            committed = Committed.fromJson(row.value().utf8());
        } catch (RuntimeException e) {
            throw new IllegalStateException("the commit pointer " + keys.committed(queue) + " of queue '" + queue
                    + "' cannot be read (" + e.getMessage() + "): fix or delete that KV row in namespace "
                    + SinkKeys.NAMESPACE + " before starting", e);
        }
        Map<String, CheckpointDoc.Position> positions = new HashMap<>();
        checkpoints.flatMap(reader -> reader.newest(queue, committed.k()))
                .ifPresent(doc -> doc.positions().forEach(p -> positions.put(p.partition(), p)));
        LOG.info("queue {}: commit pointer k={} tEnd={}; {} checkpoint positions",
                queue, committed.k(), committed.tEnd(), positions.size());
        return new StartPlan(Optional.of(committed), positions);
    }
}
