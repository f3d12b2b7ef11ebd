package io.queenlake.connector.restore;

import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.client.QueenException;
import io.queenlake.broker.client.RetryPolicy;
import io.queenlake.broker.kv.CommitPointers;
import io.queenlake.broker.kv.Intents;
import io.queenlake.broker.kv.ObservedPointer;
import io.queenlake.format.manifest.Committed;
import io.queenlake.format.manifest.Intent;
import io.queenlake.source.PointerAtStart;
import io.queenlake.source.TokenRefusal;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The commit pointer of each queue and its open intent, read once per queue per instance: where
 * window numbering continues when Flink has no state for the queue, and which window must be
 * finished first (docs/ARCHITECTURE.md "Restore"). An intent is open when it names window
 * {@code committed.k + 1} (window 1 when there is no pointer) and starts at or after the pointer's
 * {@code tEnd}: the committer wrote it before publishing any object of that window and had not
 * moved the pointer past it. Retriable broker failures are retried with the {@link RetryPolicy}; a
 * terminal one fails with one sentence naming the queue and the broker (a refused token stops the
 * job without a restart: {@link TokenRefusal}), and a document that cannot be decoded with the
 * {@link io.queenlake.broker.kv.UnreadableDocumentException}'s. It only reads;
 * the committer is the only writer of the pointer and the intent.
 */
public final class PointerRestore {

    private final CommitPointers pointers;
    private final Intents intents;
    private final String broker;
    private final RetryPolicy retry;
    private final Map<String, Start> read = new HashMap<>();

    /**
     * Where a queue without Flink state starts.
     *
     * @param committed the pointer, empty when nothing was ever committed
     * @param redo the open intent: the window to close first, with exactly its {@code k}, bounds and format
     */
    public record Start(Optional<Committed> committed, Optional<Intent> redo) {

        /** From a pointer and an intent as stored (read in a batch by the source): the intent counts only when open. */
        public static Start of(PointerAtStart read) {
            return of(read.committed(), read.intent());
        }

        private static Start of(Optional<Committed> pointer, Optional<Intent> intent) {
            return new Start(pointer, intent.filter(i -> i.isOpenAfter(pointer)));
        }
    }

    public PointerRestore(QueenClient client, String sink, RetryPolicy retry) {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(sink, "sink");
        this.pointers = new CommitPointers(client, sink);
        this.intents = new Intents(client, sink);
        this.broker = client.broker();
        this.retry = Objects.requireNonNull(retry, "retry");
    }

    /** The queue's commit pointer, or empty when nothing was ever committed (or it expired). */
    public Optional<Committed> committed(String queue) {
        return start(queue).committed();
    }

    /** The queue's pointer and open intent, read from the broker the first time. */
    public Start start(String queue) {
        Start known = read.get(queue);
        if (known == null) {
            known = readFromBroker(queue);
            read.put(queue, known);
        }
        return known;
    }

    private Start readFromBroker(String queue) {
        ObservedPointer pointer;
        try {
            pointer = retry.call(() -> pointers.read(queue));
        } catch (QueenException e) {
            throw TokenRefusal.terminal(new IllegalStateException("could not read the commit pointer "
                    + pointers.committedKey(queue) + " of queue '" + queue + "' from the broker at " + broker + ": "
                    + e.getMessage(), e));
        }
        Optional<Intent> stored;
        try {
            stored = retry.call(() -> intents.read(queue)).intent();
        } catch (QueenException e) {
            throw TokenRefusal.terminal(new IllegalStateException("could not read the intent "
                    + intents.intentKey(queue) + " of queue '" + queue + "' from the broker at " + broker + ": "
                    + e.getMessage(), e));
        }
        return Start.of(pointer.pointer(), stored);
    }
}
