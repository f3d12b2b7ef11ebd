package io.queenlake.job.restore;

import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.client.QueenException;
import io.queenlake.broker.client.RetryPolicy;
import io.queenlake.broker.kv.CommitPointers;
import io.queenlake.format.manifest.Committed;
import io.queenlake.source.TokenRefusal;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The commit pointer of each queue, read once per queue per instance: where window numbering
 * continues when Flink has no state for the queue (docs/ARCHITECTURE.md "Restore"). Retriable broker failures
 * are retried with the {@link RetryPolicy}; a terminal one fails with one sentence naming the queue
 * and the broker (a refused token stops the job without a restart: {@link TokenRefusal}), and a
 * pointer that cannot be decoded with the {@link io.queenlake.broker.kv.UnreadableDocumentException}'s.
 * It only reads; the committer is the only writer of the pointer.
 */
public final class PointerRestore {

    private final CommitPointers pointers;
    private final String broker;
    private final RetryPolicy retry;
    private final Map<String, Optional<Committed>> read = new HashMap<>();

    public PointerRestore(QueenClient client, String sink, RetryPolicy retry) {
        this.pointers = new CommitPointers(Objects.requireNonNull(client, "client"), Objects.requireNonNull(sink, "sink"));
        this.broker = client.broker();
        this.retry = Objects.requireNonNull(retry, "retry");
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
        try {
            return retry.call(() -> pointers.read(queue)).pointer();
        } catch (QueenException e) {
            throw TokenRefusal.terminal(new IllegalStateException("could not read the commit pointer "
                    + pointers.committedKey(queue) + " of queue '" + queue + "' from the broker at " + broker + ": "
                    + e.getMessage(), e));
        }
    }
}
