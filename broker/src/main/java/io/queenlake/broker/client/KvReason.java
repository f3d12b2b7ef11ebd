package io.queenlake.broker.client;

/** Why a KV write's precondition was lost. "A lost precondition is not an error, it is a verdict." */
public enum KvReason {
    /** {@code expect: 0} (or putIfAbsent) met an existing key. */
    EXISTS,
    /** {@code expect: N} met no key. */
    ABSENT,
    /** {@code expect: N} met another version. */
    VERSION,
    /** A broker limit refused the op. */
    LIMIT,
    /** The stored value's type does not fit the op. */
    TYPE,
    /** A reason this client does not know. */
    OTHER;

    static KvReason fromWire(String reason) {
        return switch (reason) {
            case "exists" -> EXISTS;
            case "absent" -> ABSENT;
            case "version" -> VERSION;
            case "limit" -> LIMIT;
            case "type" -> TYPE;
            default -> OTHER;
        };
    }
}
