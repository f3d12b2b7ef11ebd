package io.queenlake.format.model;

import java.util.Arrays;
import java.util.Objects;

/**
 * One entry of a queue partition's log, as the broker stored it.
 *
 * <p>The payload is the producer's JSON text exactly as the broker sent it (never a parsed tree):
 * {@code 42.00}, key order, big integers and escapes survive. An empty array means an empty payload.
 *
 * @param partition the partition name
 * @param partitionId the partition incarnation id (a new id when the partition is deleted and
 *     re-created); may be empty when unknown
 * @param offset dense per partition incarnation
 * @param transactionId may be empty, never null
 * @param tsMicros the broker stamp, microseconds since the epoch (UTC)
 * @param payload the raw JSON bytes, or an empty array
 * @param payloadParsed true only when whoever made the record has already parsed the payload as
 *     one JSON text with a strict parser, as QueenSource does with every fetch answer. It spares
 *     the JSONL encoder a second full check of the same bytes and never changes them, so it is a
 *     fact about where the record came from, not part of its value: {@link #equals} ignores it.
 */
public record LogRecord(
        String partition,
        String partitionId,
        long offset,
        String transactionId,
        long tsMicros,
        byte[] payload,
        boolean payloadParsed) {

    private static final byte[] EMPTY = new byte[0];

    public LogRecord {
        Objects.requireNonNull(partition, "partition");
        partitionId = partitionId == null ? "" : partitionId;
        transactionId = transactionId == null ? "" : transactionId;
        payload = payload == null ? EMPTY : payload;
    }

    /** A record whose payload nobody has parsed yet: the JSONL encoder checks it in full. */
    public LogRecord(String partition, String partitionId, long offset, String transactionId, long tsMicros,
            byte[] payload) {
        this(partition, partitionId, offset, transactionId, tsMicros, payload, false);
    }

    /** The weight a record adds to a window's size cut: its payload bytes, at least one. */
    public long weight() {
        return Math.max(payload.length, 1);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LogRecord r
                && offset == r.offset
                && tsMicros == r.tsMicros
                && partition.equals(r.partition)
                && partitionId.equals(r.partitionId)
                && transactionId.equals(r.transactionId)
                && Arrays.equals(payload, r.payload);
    }

    @Override
    public int hashCode() {
        return Objects.hash(partition, partitionId, offset, tsMicros) * 31 + Arrays.hashCode(payload);
    }

    @Override
    public String toString() {
        return "LogRecord{" + partition + "@" + offset + " ts=" + tsMicros + " " + payload.length + "B}";
    }
}
