package io.queenlake.devstack.broker;

import java.util.Arrays;
import java.util.UUID;

/**
 * One incarnation of a partition: its records in offset order, its bounds, its last write and its
 * dedup index. Offsets are dense from 0; retention only ever removes a prefix. Readers and the
 * single writer meet on this object's monitor, and readers take references, never copies of bytes.
 */
final class PartitionLog {

    /** {@code logStart} is the first offset still stored, {@code highWatermark} the next offset to write. */
    record Bounds(long logStart, long highWatermark) {
        long lastOffset() {
            return highWatermark - 1;
        }
    }

    /** A run of consecutive stored records read for one fetch entry. */
    record Run(StoredRecord[] records, long payloadBytes) {
        static final Run EMPTY = new Run(new StoredRecord[0], 0);
    }

    private final String name;
    private final UUID id;
    private final long pid;
    private final DedupIndex dedup = new DedupIndex();

    private StoredRecord[] records = new StoredRecord[16];
    private int head;
    private int tail;
    private long logStart;
    private long nextOffset;
    private long lastWriteAt;

    PartitionLog(String name, UUID id, long pid, long logStart, long lastWriteAt) {
        this.name = name;
        this.id = id;
        this.pid = pid;
        this.logStart = logStart;
        this.nextOffset = logStart;
        this.lastWriteAt = lastWriteAt;
    }

    String name() {
        return name;
    }

    UUID id() {
        return id;
    }

    /** The broker-wide creation number: partitions are listed in pid order and paged by it. */
    long pid() {
        return pid;
    }

    synchronized Bounds bounds() {
        return new Bounds(logStart, nextOffset);
    }

    /** The stamp of the last record ever appended (0 when none), retention notwithstanding. */
    synchronized long lastWriteAt() {
        return lastWriteAt;
    }

    synchronized DedupIndex.Seen duplicateOf(String transactionId, long nowMicros) {
        return dedup.lookup(transactionId, nowMicros);
    }

    synchronized void append(StoredRecord record) {
        if (record.offset() != nextOffset) {
            throw new IllegalStateException("partition " + name + " expected offset " + nextOffset + " but got " + record.offset());
        }
        if (tail == records.length) {
            compactOrGrow();
        }
        records[tail++] = record;
        nextOffset++;
        lastWriteAt = Math.max(lastWriteAt, record.stamp());
        dedup.remember(record.transactionId(), record.offset(), record.stamp());
    }

    synchronized void rememberTrimmed(String transactionId, long offset, long stamp) {
        dedup.remember(transactionId, offset, stamp);
    }

    /**
     * Consecutive records from {@code from}, stepping over offsets retention removed since the
     * caller read the bounds (so the first record may be above {@code from}), stopping before the
     * record that would take the payload bytes over {@code maxBytes} (the first always comes).
     */
    synchronized Run read(long from, long maxBytes, int maxRecords) {
        long start = Math.max(from, logStart);
        if (start >= nextOffset) {
            return Run.EMPTY;
        }
        int first = head + (int) (start - records[head].offset());
        int end = first;
        long used = 0;
        while (end < tail && end - first < maxRecords) {
            int w = records[end].weight();
            if (end > first && used + w > maxBytes) {
                break;
            }
            used += w;
            end++;
        }
        return new Run(Arrays.copyOfRange(records, first, end), used);
    }

    /** The first stored record stamped at or after {@code micros}, or null when none is that late. */
    synchronized StoredRecord firstAtOrAfter(long micros) {
        int lo = head;
        int hi = tail;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (records[mid].stamp() < micros) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo < tail ? records[lo] : null;
    }

    /** The offset retention may trim up to: the first record stamped at or after {@code stampFloor}. */
    synchronized long firstOffsetStampedFrom(long stampFloor) {
        StoredRecord r = firstAtOrAfter(stampFloor);
        return r == null ? nextOffset : r.offset();
    }

    /** Removes every record below {@code newLogStart}. */
    synchronized void trimTo(long newLogStart) {
        long target = Math.min(newLogStart, nextOffset);
        while (head < tail && records[head].offset() < target) {
            records[head++] = null;
        }
        logStart = Math.max(logStart, target);
    }

    synchronized void forgetTransactionsOlderThan(long stampFloor) {
        dedup.forgetOlderThan(stampFloor);
    }

    synchronized java.util.Map<String, DedupIndex.Seen> trimmedTransactions() {
        return dedup.trimmedBelow(logStart);
    }

    /** A stable copy of the stored records, for a snapshot. */
    synchronized StoredRecord[] storedRecords() {
        return Arrays.copyOfRange(records, head, tail);
    }

    private void compactOrGrow() {
        int live = tail - head;
        if (head > 0 && live <= records.length / 2) {
            System.arraycopy(records, head, records, 0, live);
            Arrays.fill(records, live, tail, null);
        } else {
            StoredRecord[] bigger = new StoredRecord[records.length * 2];
            System.arraycopy(records, head, bigger, 0, live);
            records = bigger;
        }
        head = 0;
        tail = live;
    }
}
