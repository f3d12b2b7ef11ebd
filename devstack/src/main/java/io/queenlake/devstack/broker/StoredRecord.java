package io.queenlake.devstack.broker;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One record of a partition log, kept as its element of a fetch answer,
 * {@code {"offset":..,"transactionId":"..","payload":<raw>,"ts":".."}}, rendered once by
 * {@link RecordWriter} when it is appended (its offset never changes), so a fetch copies bytes and
 * never renders a payload twice. The payload is a slice of it. A broker that answers as the raft
 * broker does puts its rendering ({@link RenderedPayload}) there and keeps the stored text in
 * {@code stored}, which is null when the rendering holds the stored text itself.
 */
record StoredRecord(long offset, long stamp, String transactionId, StoredJson json, int payloadStart, int payloadLength,
        byte[] stored) {

    private static final byte[] NULL = "null".getBytes(StandardCharsets.US_ASCII);

    /** Renders the record once, at append time; an empty payload is answered as {@code null}. */
    static StoredRecord of(long offset, long stamp, String transactionId, byte[] payload) {
        return of(offset, stamp, transactionId, payload, false);
    }

    /** The same, answering the payload as the raft broker renders it when {@code render} is set. */
    static StoredRecord of(long offset, long stamp, String transactionId, byte[] payload, boolean render) {
        byte[] answer = payload.length == 0 ? NULL : render ? RenderedPayload.of(payload) : payload;
        RecordWriter.Rendered r = RecordWriter.render(offset, stamp, transactionId, answer);
        return new StoredRecord(offset, stamp, transactionId, new StoredJson(r.json()), r.payloadStart(), payload.length,
                render && payload.length > 0 ? payload : null);
    }

    /** The stored payload text, empty when the push carried none. */
    byte[] payload() {
        return stored != null ? stored.clone() : Arrays.copyOfRange(json.bytes(), payloadStart, payloadStart + payloadLength);
    }

    /** What the record weighs against a fetch budget: its stored payload bytes, at least 1. */
    int weight() {
        return Math.max(payloadLength, 1);
    }
}
