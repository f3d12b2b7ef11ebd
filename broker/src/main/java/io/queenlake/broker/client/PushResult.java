package io.queenlake.broker.client;

import java.util.Objects;

/**
 * The broker's answer for one pushed item.
 *
 * @param offset where the record was appended; for a duplicate, the original record's offset
 */
public record PushResult(int index, String transactionId, PushStatus status, long offset) {

    public PushResult {
        Objects.requireNonNull(transactionId, "transactionId");
        Objects.requireNonNull(status, "status");
    }

    /** How the broker took one pushed item. */
    public enum PushStatus {
        /** Appended. */
        QUEUED,
        /** The transactionId was seen in the partition within the dedup window; nothing appended. */
        DUPLICATE,
        /** A status this client does not know. */
        OTHER;

        static PushStatus fromWire(String status) {
            return switch (status) {
                case "queued" -> QUEUED;
                case "duplicate" -> DUPLICATE;
                default -> OTHER;
            };
        }
    }
}
