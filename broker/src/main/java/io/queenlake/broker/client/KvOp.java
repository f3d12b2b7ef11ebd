package io.queenlake.broker.client;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One operation of a {@code POST /api/v1/kv} batch. Results come back index-aligned.
 *
 * <p>{@code required} on a write: if its precondition is lost, the broker rolls back the whole
 * batch and answers {@link KvAnswer.PreconditionFailed}.
 */
public sealed interface KvOp {

    /** The namespace, {@code ^[a-z0-9][a-z0-9._-]{0,63}$}. */
    String ns();

    /** The broker's per-call ceiling on operations. */
    int MAX_OPS = 256;

    Pattern NAMESPACE = Pattern.compile("^[a-z0-9][a-z0-9._-]{0,63}$");

    record Get(String ns, String key) implements KvOp {
        public Get {
            Objects.requireNonNull(ns, "ns");
            Objects.requireNonNull(key, "key");
        }
    }

    record GetMany(String ns, List<String> keys) implements KvOp {
        public GetMany {
            Objects.requireNonNull(ns, "ns");
            keys = List.copyOf(keys);
        }
    }

    /**
     * Rows whose key starts with {@code prefix}, in key order.
     *
     * @param limit up to 1000
     * @param after an exclusive keyset cursor (the previous page's {@code nextAfter})
     */
    record GetPrefix(String ns, String prefix, int limit, Optional<String> after) implements KvOp {
        public GetPrefix {
            Objects.requireNonNull(ns, "ns");
            Objects.requireNonNull(prefix, "prefix");
            Objects.requireNonNull(after, "after");
        }
    }

    record Put(String ns, String key, RawJson value, KvExpiry expiry, KvExpect expect, boolean required)
            implements KvOp {
        public Put {
            Objects.requireNonNull(ns, "ns");
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(value, "value");
            Objects.requireNonNull(expiry, "expiry");
            Objects.requireNonNull(expect, "expect");
        }
    }

    record PutIfAbsent(String ns, String key, RawJson value, KvExpiry expiry, boolean required) implements KvOp {
        public PutIfAbsent {
            Objects.requireNonNull(ns, "ns");
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(value, "value");
            Objects.requireNonNull(expiry, "expiry");
        }
    }

    record Delete(String ns, String key, KvExpect expect, boolean required) implements KvOp {
        public Delete {
            Objects.requireNonNull(ns, "ns");
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(expect, "expect");
        }
    }

    static Get get(String ns, String key) {
        return new Get(ns, key);
    }

    static GetMany getMany(String ns, List<String> keys) {
        return new GetMany(ns, keys);
    }

    static GetPrefix getPrefix(String ns, String prefix, int limit) {
        return new GetPrefix(ns, prefix, limit, Optional.empty());
    }

    static Put upsert(String ns, String key, RawJson value, KvExpiry expiry) {
        return new Put(ns, key, value, expiry, KvExpect.any(), false);
    }

    static PutIfAbsent putIfAbsent(String ns, String key, RawJson value, KvExpiry expiry) {
        return new PutIfAbsent(ns, key, value, expiry, false);
    }

    static Delete delete(String ns, String key) {
        return new Delete(ns, key, KvExpect.any(), false);
    }
}
