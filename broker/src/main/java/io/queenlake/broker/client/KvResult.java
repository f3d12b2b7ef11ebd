package io.queenlake.broker.client;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** The result of one {@link KvOp}, at the op's index in the batch. */
public sealed interface KvResult {

    /** A {@code get}: the row, or empty when the key is absent or expired. */
    record Got(Optional<KvRow> row) implements KvResult {
        public Got {
            Objects.requireNonNull(row, "row");
        }
    }

    /**
     * A {@code getMany}, evaluated after the batch's writes.
     *
     * @param truncated some keys fell to the read budget and appear in neither list
     */
    record GotMany(List<KvRow> rows, List<String> missing, boolean truncated) implements KvResult {
        public GotMany {
            rows = List.copyOf(rows);
            missing = List.copyOf(missing);
        }
    }

    /** A {@code getPrefix} page, evaluated after the batch's writes; pass {@code nextAfter} as {@code after}. */
    record GotPrefix(List<KvRow> rows, boolean truncated, Optional<String> nextAfter) implements KvResult {
        public GotPrefix {
            rows = List.copyOf(rows);
            Objects.requireNonNull(nextAfter, "nextAfter");
        }
    }

    /**
     * A {@code put} or {@code putIfAbsent}.
     *
     * @param value when applied, the written value; when not, the winner's current value (advisory)
     * @param version when applied, the new version; when not, the winner's version (0 when absent)
     * @param reason why it was not applied; empty when applied
     */
    record Written(boolean applied, String key, Optional<RawJson> value, long version, Optional<KvReason> reason)
            implements KvResult {
        public Written {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(value, "value");
            Objects.requireNonNull(reason, "reason");
        }
    }

    /** A {@code delete}; {@code version} is the current version when the precondition was lost. */
    record Deleted(boolean applied, long version, Optional<KvReason> reason) implements KvResult {
        public Deleted {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
