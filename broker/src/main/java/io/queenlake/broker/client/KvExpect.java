package io.queenlake.broker.client;

/**
 * A KV write's precondition.
 *
 * <p>Versions are opaque numbers from a global sequence: compare them for equality only.
 */
public sealed interface KvExpect {

    /** No precondition: an upsert. */
    record Any() implements KvExpect {}

    /** The key must not exist ({@code expect: 0}). */
    record Absent() implements KvExpect {}

    /** The key's current version must be this one; never creates ({@code expect: N}). */
    record Version(long version) implements KvExpect {
        public Version {
            if (version <= 0) {
                throw new IllegalArgumentException("an expected KV version is above 0, was " + version
                        + "; use KvExpect.absent() for a key that must not exist");
            }
        }
    }

    static KvExpect any() {
        return new Any();
    }

    static KvExpect absent() {
        return new Absent();
    }

    static KvExpect version(long version) {
        return new Version(version);
    }
}
