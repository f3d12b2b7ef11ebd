package io.queenlake.format.jsonl;

import io.queenlake.format.model.LogRecord;
import io.queenlake.format.model.Micros;
import java.nio.charset.StandardCharsets;

/**
 * Builds the exact bytes of JSONL lines into one reusable buffer:
 * {@code {"partition":..,"offset":N,"transactionId":..,"ts":"...ffffffZ","payload":<raw>}\n}.
 * The payload is spliced verbatim (raw {@code \n}/{@code \r} become spaces), {@code null} when
 * empty, and a JSON string of its bytes when it is not JSON. Per-record work allocates only the
 * transaction id's UTF-8 bytes (see {@link JsonStringEscaper#quoteInto}): the escaped partition
 * and the stamp's per-second prefix are cached, since consecutive lines mostly share them. Not
 * thread-safe: one per encode call.
 */
final class JsonlLineWriter {

    private static final byte[] PARTITION = ascii("{\"partition\":");
    private static final byte[] OFFSET = ascii(",\"offset\":");
    private static final byte[] TRANSACTION = ascii(",\"transactionId\":");
    private static final byte[] TS = ascii(",\"ts\":\"");
    private static final byte[] PAYLOAD = ascii("\",\"payload\":");
    private static final byte[] NULL = ascii("null");
    private static final byte[] END = ascii("}\n");
    private static final int SECOND_PREFIX = 20;

    final LineBuffer buffer;
    private final JsonValidator validator = new JsonValidator();
    private final LineBuffer scratch = new LineBuffer(256);

    private String lastPartition;
    private byte[] lastPartitionQuoted;
    private long lastSecond = Long.MIN_VALUE;
    private final byte[] secondPrefix = new byte[SECOND_PREFIX];

    JsonlLineWriter(int capacity) {
        buffer = new LineBuffer(capacity);
    }

    /** @return whether the payload was rewritten as a JSON string ({@link PayloadText}) */
    boolean append(LogRecord r) {
        LineBuffer b = buffer;
        b.put(PARTITION);
        b.put(quotedPartition(r.partition()));
        b.put(OFFSET);
        b.putLong(r.offset());
        b.put(TRANSACTION);
        String txn = r.transactionId();
        if (txn.isEmpty()) {
            b.put((byte) '"');
            b.put((byte) '"');
        } else {
            JsonStringEscaper.quoteInto(txn, b);
        }
        b.put(TS);
        appendStamp(r.tsMicros());
        b.put(PAYLOAD);
        boolean rewritten = appendPayload(r);
        b.put(END);
        return rewritten;
    }

    private byte[] quotedPartition(String partition) {
        if (partition != lastPartition && !partition.equals(lastPartition)) {
            scratch.size = 0;
            JsonStringEscaper.quoteInto(partition, scratch);
            lastPartitionQuoted = scratch.toByteArray();
            lastPartition = partition;
        }
        return lastPartitionQuoted;
    }

    private void appendStamp(long micros) {
        long second = Math.floorDiv(micros, Micros.PER_SECOND);
        if (second != lastSecond) {
            Micros.renderSecondPrefix(second, secondPrefix, 0);
            lastSecond = second;
        }
        LineBuffer b = buffer;
        b.ensure(SECOND_PREFIX + 7);
        System.arraycopy(secondPrefix, 0, b.bytes, b.size, SECOND_PREFIX);
        b.size = Micros.writeFraction((int) (micros - second * Micros.PER_SECOND), b.bytes, b.size + SECOND_PREFIX);
    }

    /** @return whether the payload was rewritten */
    private boolean appendPayload(LogRecord r) {
        byte[] payload = r.payload();
        if (payload.length == 0) {
            buffer.put(NULL);
            return false;
        }
        return !(r.payloadParsed() && spliceParsedAscii(payload)) && !spliceChecked(payload);
    }

    /**
     * Copies the payload into the line first and checks it there: see {@link JsonValidator}.
     *
     * @return whether it went in as it is (else as a JSON string of its lossy UTF-8)
     */
    private boolean spliceChecked(byte[] payload) {
        LineBuffer b = buffer;
        int len = payload.length;
        b.ensure(len + 1); // the validator's NUL goes after the copy
        int start = b.size;
        System.arraycopy(payload, 0, b.bytes, start, len);
        if (validator.isValid(b.bytes, start, start + len)) {
            b.size = start + len; // its line breaks already turned into spaces
            return true;
        }
        JsonStringEscaper.quoteBytesInto(payload, b); // from the original: the copy may be altered
        return false;
    }

    /**
     * A payload already parsed as JSON by whoever made the record: copied, with its raw line
     * breaks (only ever whitespace there) turned into spaces, and no second check as long as it is
     * ASCII. At the first non-ASCII byte it gives up, leaving the line as it was, for
     * {@link #spliceChecked}: the parser that vouched for it may be laxer about UTF-8 than the
     * lake is (overlong forms, encoded surrogates), and the bytes in the lake must never depend
     * on who parsed the payload.
     *
     * @return whether the payload is in the line
     */
    private boolean spliceParsedAscii(byte[] payload) {
        LineBuffer b = buffer;
        int len = payload.length;
        b.ensure(len + Long.BYTES); // words are read up to seven bytes past the end
        int start = b.size;
        byte[] bytes = b.bytes;
        System.arraycopy(payload, 0, bytes, start, len);
        int end = start + len;
        for (int p = start; p < end; p += Long.BYTES) {
            long hits = StringStops.controlsOrHigh(StringStops.word(bytes, p));
            while (hits != 0) {
                int at = p + (Long.numberOfTrailingZeros(hits) >>> 3);
                if (at >= end) {
                    break;
                }
                int c = bytes[at];
                if (c < 0) {
                    return false; // size unchanged: the copy is overwritten
                }
                if (c == '\n' || c == '\r') {
                    bytes[at] = ' ';
                }
                hits &= hits - 1; // a borrow may flag a later byte falsely: it is only read, never missed
            }
        }
        b.size = end;
        return true;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
