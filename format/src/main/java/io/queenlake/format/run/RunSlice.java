package io.queenlake.format.run;

import java.io.IOException;
import java.io.OutputStream;

/**
 * The records {@code [from, to)} of a sealed {@link RecordRun}: one partition incarnation's part of
 * a closed window, in offset order, with its stamps never falling.
 */
public final class RunSlice {

    private final RecordRun run;
    private final int from;
    private final int to;

    RunSlice(RecordRun run, int from, int to) {
        this.run = run;
        this.from = from;
        this.to = to;
    }

    public String partition() {
        return run.partition();
    }

    public String partitionId() {
        return run.partitionId();
    }

    public String encoding() {
        return run.encoding();
    }

    public int size() {
        return to - from;
    }

    /** Record {@code i} of the slice (0 is its first). */
    public long offset(int i) {
        return run.offset(from + i);
    }

    public long stamp(int i) {
        return run.stamp(from + i);
    }

    public int weight(int i) {
        return run.weight(from + i);
    }

    public long firstOffset() {
        return offset(0);
    }

    public long lastOffset() {
        return offset(size() - 1);
    }

    public long firstStamp() {
        return stamp(0);
    }

    public long lastStamp() {
        return stamp(size() - 1);
    }

    /** The slice's size-cut weight, all records. */
    public long weight() {
        if (from == 0 && to == run.size()) {
            return run.weight();
        }
        long sum = 0;
        for (int i = from; i < to; i++) {
            sum += run.weight(i);
        }
        return sum;
    }

    /** The encoded bytes of the slice's records. */
    public long bytes() {
        return run.end(to - 1) - run.start(from);
    }

    /** The length of record {@code i}'s encoded bytes. */
    public int length(int i) {
        return (int) (run.end(from + i) - run.start(from + i));
    }

    /** Copies record {@code i}'s encoded bytes into {@code dst} at {@code at}; returns their length. */
    public int read(int i, byte[] dst, int at) {
        int length = length(i);
        run.read(run.start(from + i), dst, at, length);
        return length;
    }

    /** Writes the encoded bytes of records {@code [fromRecord, toRecord)} of the slice to {@code out}. */
    public void writeTo(int fromRecord, int toRecord, OutputStream out) throws IOException {
        if (fromRecord < toRecord) {
            run.writeTo(run.start(from + fromRecord), run.end(from + toRecord - 1), out);
        }
    }

    /** The records {@code [fromRecord, toRecord)} of this slice, as a slice of the same run. */
    public RunSlice sub(int fromRecord, int toRecord) {
        return run.slice(from + fromRecord, from + toRecord);
    }

    /** How many records from the slice's start are stamped at or below {@code stamp}. */
    public int countAtOrBelow(long stamp) {
        return run.endOfStamp(stamp, from, to) - from;
    }

    @Override
    public String toString() {
        return "RunSlice{" + partition() + "/" + partitionId() + " offsets " + firstOffset() + ".." + lastOffset() + "}";
    }
}
