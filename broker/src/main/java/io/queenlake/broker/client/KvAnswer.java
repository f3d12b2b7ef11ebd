package io.queenlake.broker.client;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The answer to a KV batch: either every op's result, or the verdict that a {@code required}
 * precondition was lost and the whole batch was rolled back. Both are HTTP 200; neither is an error.
 */
public sealed interface KvAnswer {

    /** The batch applied; results are index-aligned with the ops. */
    record Results(List<KvResult> results) implements KvAnswer {
        public Results {
            results = List.copyOf(results);
        }

        public KvResult get(int index) {
            return results.get(index);
        }
    }

    /**
     * The {@code kv_precondition} envelope: nothing of the batch was applied.
     *
     * @param failedIndex the op that lost (0 when the broker truncated the detail)
     * @param kvReason why it lost; empty when the broker truncated the detail
     * @param version the winner's version, empty when absent or truncated
     * @param value the winner's value, empty when absent or truncated
     */
    record PreconditionFailed(int failedIndex, Optional<KvReason> kvReason, Optional<Long> version, Optional<RawJson> value)
            implements KvAnswer {
        public PreconditionFailed {
            Objects.requireNonNull(kvReason, "kvReason");
            Objects.requireNonNull(version, "version");
            Objects.requireNonNull(value, "value");
        }
    }
}
