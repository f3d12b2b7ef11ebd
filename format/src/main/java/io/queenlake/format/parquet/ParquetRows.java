package io.queenlake.format.parquet;

import io.queenlake.format.codec.ObjectEncoder;
import io.queenlake.format.jsonl.PayloadText;
import io.queenlake.format.model.LogRecord;
import io.queenlake.format.run.RecordEncoding;
import io.queenlake.format.run.RecordRun;
import io.queenlake.format.run.RunSlice;
import java.nio.charset.StandardCharsets;
import java.util.AbstractList;
import java.util.List;

/**
 * A Parquet record kept compactly until its window closes: the transaction id and the payload as
 * bytes (offset and stamp are the run's columns, partition and incarnation the run's), read back
 * one row at a time as the row groups are written. Parquet's columns need the whole window in
 * lake order, so the rows themselves are encoded at the close.
 *
 * <p>Layout of one record: the transaction id's UTF-8 length (varint) and bytes, a byte saying
 * whether the payload was parsed already, then the payload to the record's end.
 */
final class ParquetRows implements RecordEncoding {

    static final String NAME = "parquet-rows";

    private static final byte[] NO_TRANSACTION = new byte[0];

    private byte[] scratch = new byte[256];

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean append(LogRecord r, RecordRun run) {
        byte[] txn = r.transactionId().isEmpty() ? NO_TRANSACTION : r.transactionId().getBytes(StandardCharsets.UTF_8);
        byte[] payload = r.payload();
        int length = 5 + txn.length + 1 + payload.length;
        if (scratch.length < length) {
            scratch = new byte[Math.max(length, scratch.length * 2)];
        }
        int at = putVarint(txn.length, scratch, 0);
        System.arraycopy(txn, 0, scratch, at, txn.length);
        at += txn.length;
        scratch[at++] = (byte) (r.payloadParsed() ? 1 : 0);
        System.arraycopy(payload, 0, scratch, at, payload.length);
        at += payload.length;
        run.add(r.offset(), r.tsMicros(), (int) r.weight(), scratch, 0, at);
        return PayloadText.isRewritten(r); // the rows are encoded at the close: the check is made here
    }

    /** The records of {@code inLakeOrder}, each decoded when asked for: never all at once. */
    static List<LogRecord> records(List<RunSlice> inLakeOrder) {
        int[] starts = new int[inLakeOrder.size() + 1];
        for (int s = 0; s < inLakeOrder.size(); s++) {
            ObjectEncoder.requireEncoding(inLakeOrder.get(s), NAME);
            starts[s + 1] = Math.addExact(starts[s], inLakeOrder.get(s).size());
        }
        return new AbstractList<>() {
            private byte[] buffer = new byte[256];
            private int slice;

            @Override
            public LogRecord get(int index) {
                if (index < starts[slice] || index >= starts[slice + 1]) {
                    slice = sliceOf(index);
                }
                RunSlice s = inLakeOrder.get(slice);
                int i = index - starts[slice];
                int length = s.length(i);
                if (buffer.length < length) {
                    buffer = new byte[Math.max(length, buffer.length * 2)];
                }
                s.read(i, buffer, 0);
                return decode(s, i, buffer, length);
            }

            private int sliceOf(int index) {
                int low = 0;
                int high = inLakeOrder.size() - 1;
                while (low < high) {
                    int mid = (low + high + 1) >>> 1;
                    if (starts[mid] <= index) {
                        low = mid;
                    } else {
                        high = mid - 1;
                    }
                }
                return low;
            }

            @Override
            public int size() {
                return starts[inLakeOrder.size()];
            }
        };
    }

    private static LogRecord decode(RunSlice s, int i, byte[] bytes, int length) {
        int txnLength = 0;
        int shift = 0;
        int at = 0;
        byte b;
        do {
            b = bytes[at++];
            txnLength |= (b & 0x7f) << shift;
            shift += 7;
        } while (b < 0);
        String txn = txnLength == 0 ? "" : new String(bytes, at, txnLength, StandardCharsets.UTF_8);
        at += txnLength;
        boolean parsed = bytes[at++] == 1;
        byte[] payload = java.util.Arrays.copyOfRange(bytes, at, length);
        return new LogRecord(s.partition(), s.partitionId(), s.offset(i), txn, s.stamp(i), payload, parsed);
    }

    private static int putVarint(int value, byte[] dst, int at) {
        int v = value;
        while ((v & ~0x7f) != 0) {
            dst[at++] = (byte) ((v & 0x7f) | 0x80);
            v >>>= 7;
        }
        dst[at++] = (byte) v;
        return at;
    }
}
