package io.queenlake.source;

import io.queenlake.format.manifest.Committed;
import io.queenlake.format.manifest.Intent;
import java.util.Objects;
import java.util.Optional;
import org.apache.flink.annotation.PublicEvolving;

/**
 * A queue's commit pointer and intent as the reader read them just before the queue's
 * {@link QueueStart} went out, in KV batches with the other queues that started with it: the
 * windows continue from them without a KV read of their own per queue.
 *
 * @param committed the pointer, empty when nothing was ever committed
 * @param intent the intent as stored, open or not (the windows decide whether it is open)
 */
@PublicEvolving
public record PointerAtStart(Optional<Committed> committed, Optional<Intent> intent) {

    public PointerAtStart {
        Objects.requireNonNull(committed, "committed");
        Objects.requireNonNull(intent, "intent");
    }
}
