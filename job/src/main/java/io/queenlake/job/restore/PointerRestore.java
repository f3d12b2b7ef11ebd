package io.queenlake.job.restore;

import io.queenlake.broker.client.KvAnswer;
import io.queenlake.broker.client.KvOp;
import io.queenlake.broker.client.KvResult;
import io.queenlake.broker.client.KvRow;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.client.QueenException;
import io.queenlake.broker.client.RetryPolicy;
import io.queenlake.format.key.NameEscaping;
import io.queenlake.format.manifest.Committed;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads the KV commit pointer {@code s3:<sink>:<escQueue>:committed} (namespace {@value #NAMESPACE})
 * of a queue, once per queue per instance: where window numbering continues when Flink has no state
 * for the queue (DESIGN.md "Restore"). Retriable broker failures are retried with the
 * {@link RetryPolicy}; a terminal one, or a pointer that cannot be decoded, fails with one sentence
 * naming the queue and the broker. It only reads; the committer is the only writer of the pointer.
 */
public final class PointerRestore {

    /** The KV namespace the reference sink and queen-lake share. */
    public static final String NAMESPACE = "queen-s3";

    private final QueenClient client;
    private final String sink;
    private final RetryPolicy retry;
    private final Map<String, Optional<Committed>> read = new HashMap<>();

    public PointerRestore(QueenClient client, String sink, RetryPolicy retry) {
        this.client = Objects.requireNonNull(client, "client");
        this.sink = Objects.requireNonNull(sink, "sink");
        this.retry = Objects.requireNonNull(retry, "retry");
    }

    /** The pointer key of one queue. */
    public static String committedKey(String sink, String queue) {
        return "s3:" + sink + ":" + NameEscaping.escape(queue) + ":committed";
    }

    /** The queue's commit pointer, or empty when nothing was ever committed (or it expired). */
    public Optional<Committed> committed(String queue) {
        Optional<Committed> known = read.get(queue);
        if (known == null) {
            known = readFromBroker(queue);
            read.put(queue, known);
        }
        return known;
    }

    private Optional<Committed> readFromBroker(String queue) {
        String key = committedKey(sink, queue);
        KvAnswer answer;
        try {
            answer = retry.call(() -> client.kv(List.of(KvOp.get(NAMESPACE, key))));
        } catch (QueenException e) {
            throw new IllegalStateException("could not read the commit pointer " + key + " of queue '" + queue
                    + "' from the broker at " + client.broker() + ": " + e.getMessage(), e);
        }
        if (!(answer instanceof KvAnswer.Results results)
                || !(results.get(0) instanceof KvResult.Got got)) {
            throw new IllegalStateException("the broker at " + client.broker() + " answered a read of the commit pointer "
                    + key + " of queue '" + queue + "' with " + answer + "; check that QUEEN_URL names a Queen broker");
        }
        Optional<KvRow> row = got.row();
        if (row.isEmpty() || row.get().value().isNull()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Committed.fromJson(row.get().value().utf8()));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("the commit pointer " + key + " of queue '" + queue + "' on the broker at "
                    + client.broker() + " cannot be decoded (" + e.getMessage()
                    + "); fix or delete it in namespace " + NAMESPACE + " before starting the job", e);
        }
    }
}
