package io.queenlake.devstack.broker;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One record of a partition log, kept as the bytes a fetch answer needs after its offset:
 * {@code ,"transactionId":"..","payload":<raw>,"ts":".."}}. The payload is a slice of that tail,
 * so a fetch copies bytes and never renders a payload twice. A broker that answers as the raft
 * broker does puts its rendering ({@link RenderedPayload}) in the tail and keeps the stored text in
 * {@code stored}, which is null when the answer holds the stored text itself.
 */
record StoredRecord(long offset, long stamp, String transactionId, byte[] tail, int payloadStart, int payloadLength,
        byte[] stored) {

    private static final byte[] TX_FIELD = ",\"transactionId\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] PAYLOAD_FIELD = ",\"payload\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NULL = "null".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TS_FIELD = ",\"ts\":".getBytes(StandardCharsets.US_ASCII);

    /** Renders the tail once, at append time; an empty payload is answered as {@code null}. */
    static StoredRecord of(long offset, long stamp, String transactionId, byte[] payload) {
        return of(offset, stamp, transactionId, payload, false);
    }

    /** The same, answering the payload as the raft broker renders it when {@code render} is set. */
    static StoredRecord of(long offset, long stamp, String transactionId, byte[] payload, boolean render) {
        byte[] answer = payload.length == 0 ? NULL : render ? RenderedPayload.of(payload) : payload;
        JsonOut out = new JsonOut(answer.length + transactionId.length() + 64);
        out.raw(TX_FIELD).string(transactionId).raw(PAYLOAD_FIELD);
        int payloadStart = out.length();
        out.raw(answer);
        out.raw(TS_FIELD).iso(stamp).raw((byte) '}');
        return new StoredRecord(offset, stamp, transactionId, out.toByteArray(), payloadStart, payload.length,
                render && payload.length > 0 ? payload : null);
    }

    /** The stored payload text, empty when the push carried none. */
    byte[] payload() {
        return stored != null ? stored.clone() : Arrays.copyOfRange(tail, payloadStart, payloadStart + payloadLength);
    }

    /** What the record weighs against a fetch budget: its stored payload bytes, at least 1. */
    int weight() {
        return Math.max(payloadLength, 1);
    }

    void renderTo(JsonOut out) {
        out.ascii("{\"offset\":").number(offset).raw(tail);
    }
}
