package io.queenlake.devstack.broker;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One record of a partition log, kept as the bytes a fetch answer needs after its offset:
 * {@code ,"transactionId":"..","payload":<raw>,"ts":".."}}. The payload is a slice of that tail,
 * so a fetch copies bytes and never renders a payload twice.
 */
record StoredRecord(long offset, long stamp, String transactionId, byte[] tail, int payloadStart, int payloadLength) {

    private static final byte[] TX_FIELD = ",\"transactionId\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] PAYLOAD_FIELD = ",\"payload\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NULL = "null".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TS_FIELD = ",\"ts\":".getBytes(StandardCharsets.US_ASCII);

    /** Renders the tail once, at append time; an empty payload is answered as {@code null}. */
    static StoredRecord of(long offset, long stamp, String transactionId, byte[] payload) {
        JsonOut out = new JsonOut(payload.length + transactionId.length() + 64);
        out.raw(TX_FIELD).string(transactionId).raw(PAYLOAD_FIELD);
        int payloadStart = out.length();
        out.raw(payload.length == 0 ? NULL : payload);
        out.raw(TS_FIELD).iso(stamp).raw((byte) '}');
        return new StoredRecord(offset, stamp, transactionId, out.toByteArray(), payloadStart, payload.length);
    }

    /** The stored payload text, empty when the push carried none. */
    byte[] payload() {
        return Arrays.copyOfRange(tail, payloadStart, payloadStart + payloadLength);
    }

    /** What the record weighs against a fetch budget: its payload bytes, at least 1. */
    int weight() {
        return Math.max(payloadLength, 1);
    }

    void renderTo(JsonOut out) {
        out.ascii("{\"offset\":").number(offset).raw(tail);
    }
}
