package io.queenlake.format.codec;

import java.util.Arrays;
import java.util.Objects;

/**
 * One record read back from a lake object, as the object holds it: for JSONL the payload is the
 * line's raw {@code payload} text ({@code null} for an empty payload), for Parquet the column's
 * bytes (null when NULL).
 */
public record DecodedRecord(String partition, long offset, String transactionId, long tsMicros, byte[] payload) {

    public DecodedRecord {
        Objects.requireNonNull(partition, "partition");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DecodedRecord r && offset == r.offset && tsMicros == r.tsMicros
                && partition.equals(r.partition) && Objects.equals(transactionId, r.transactionId)
                && Arrays.equals(payload, r.payload);
    }

    @Override
    public int hashCode() {
        return Objects.hash(partition, offset, tsMicros);
    }

    @Override
    public String toString() {
        return partition + "@" + offset + " ts=" + tsMicros;
    }
}
