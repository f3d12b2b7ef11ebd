package io.queenlake.broker.client;

/** The per-entry {@code error} of a fetch, fetch/offsets or partitions/changed answer. */
public enum EntryError {
    /** The entry answered normally. */
    NONE,
    /** fetch: the offset is above {@code highWatermark} or below {@code logStartOffset}; both bounds are set. */
    OFFSET_OUT_OF_RANGE,
    /** The queue does not exist for this tenant (another tenant's queue answers the same). */
    UNKNOWN_TOPIC_OR_PARTITION,
    /** partitions/changed: the {@code after} cursor is not one the broker issued. */
    BAD_CURSOR,
    /** An error code this client does not know; the entry carries no data. */
    OTHER;

    static EntryError fromWire(String code) {
        if (code == null) {
            return NONE;
        }
        return switch (code) {
            case "OFFSET_OUT_OF_RANGE" -> OFFSET_OUT_OF_RANGE;
            case "UNKNOWN_TOPIC_OR_PARTITION" -> UNKNOWN_TOPIC_OR_PARTITION;
            case "BAD_CURSOR" -> BAD_CURSOR;
            default -> OTHER;
        };
    }
}
