package io.queenlake.broker.client;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * One record of a fetch answer.
 *
 * @param transactionId the producer's (or broker-minted) id; empty when none
 * @param tsMicros the broker stamp (the append's {@code created_at}), microseconds since the epoch
 * @param payload the exact bytes of the payload value as the broker sent it, {@code null} as
 *     the text {@code null} (an absent field, which no broker sends, as empty).
 *     Owned by this record: callers must not modify it.
 */
public record FetchedRecord(long offset, String transactionId, long tsMicros, byte[] payload) {

    public FetchedRecord {
        Objects.requireNonNull(transactionId, "transactionId");
        Objects.requireNonNull(payload, "payload");
    }

    public String payloadText() {
        return new String(payload, StandardCharsets.UTF_8);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FetchedRecord r
                && offset == r.offset
                && tsMicros == r.tsMicros
                && transactionId.equals(r.transactionId)
                && Arrays.equals(payload, r.payload);
    }

    @Override
    public int hashCode() {
        return Objects.hash(offset, transactionId, tsMicros) * 31 + Arrays.hashCode(payload);
    }

    @Override
    public String toString() {
        return "FetchedRecord[offset=" + offset + ", transactionId=" + transactionId + ", tsMicros="
                + tsMicros + ", payload=" + payload.length + " bytes]";
    }
}
