package io.queenlake.format.run;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Objects;

/**
 * The records of one partition incarnation in an open window, held as the bytes the lake's format
 * keeps of each ({@link RecordEncoding}) with each record's offset, stamp and size-cut weight
 * beside them: no object per record. A broker stamps a partition's records in log order, so a
 * run's offsets rise and its stamps never fall; {@link #add} refuses anything else, which is what
 * lets a window be cut by stamp with a binary search and put in lake order without a sort.
 *
 * <p>The bytes live in pages of {@value #PAGE_BYTES} bytes, so a growing run never copies what it
 * holds. One thread appends. Taking a {@link RunSlice} seals the run: nothing is appended after
 * that, so a slice handed to another thread reads a run that never changes again.
 */
public final class RecordRun {

    static final int PAGE_BYTES = 32 * 1024;
    static final int FIRST_PAGE_BYTES = 256;

    private final String partition;
    private final String partitionId;
    private final String encoding;

    private byte[][] pages = new byte[1][];
    private int pageCount;
    /** Bytes used in the last page. */
    private int pageUsed;
    private long bytes;
    private long totalWeight;

    private boolean sealed;
    private int size;
    private long[] offsets = new long[8];
    private long[] stamps = new long[8];
    private int[] weights = new int[8];
    /** Where each record's bytes end in the run. */
    private long[] ends = new long[8];

    /** @param encoding the name of the {@link RecordEncoding} whose bytes the run holds */
    public RecordRun(String partition, String partitionId, String encoding) {
        this.partition = Objects.requireNonNull(partition, "partition");
        this.partitionId = Objects.requireNonNull(partitionId, "partitionId");
        this.encoding = Objects.requireNonNull(encoding, "encoding");
    }

    /** Appends one record's encoded bytes {@code [from, from + length)} of {@code src}. */
    public void add(long offset, long stamp, int weight, byte[] src, int from, int length) {
        if (sealed) {
            throw new IllegalStateException("the run of partition '" + partition + "' was sliced for a closing"
                    + " window: nothing more may be added to it");
        }
        if (size > 0 && (offset <= offsets[size - 1] || stamp < stamps[size - 1])) {
            throw new IllegalStateException("partition '" + partition + "' (incarnation " + partitionId
                    + ") sent offset " + offset + " stamped " + stamp + " after offset " + offsets[size - 1]
                    + " stamped " + stamps[size - 1] + ": a partition's records must arrive once each, in log order");
        }
        if (size == offsets.length) {
            int grown = size * 2;
            offsets = Arrays.copyOf(offsets, grown);
            stamps = Arrays.copyOf(stamps, grown);
            weights = Arrays.copyOf(weights, grown);
            ends = Arrays.copyOf(ends, grown);
        }
        write(src, from, length);
        offsets[size] = offset;
        stamps[size] = stamp;
        weights[size] = Math.max(weight, 1);
        totalWeight += weights[size];
        ends[size] = bytes;
        size++;
    }

    private void write(byte[] src, int from, int length) {
        int at = from;
        int left = length;
        while (left > 0) {
            if (pageCount == 0 || pageUsed == pages[pageCount - 1].length) {
                grow(left);
            }
            byte[] page = pages[pageCount - 1];
            int n = Math.min(left, page.length - pageUsed);
            System.arraycopy(src, at, page, pageUsed, n);
            pageUsed += n;
            at += n;
            left -= n;
        }
        bytes += length;
    }

    /**
     * Room for more bytes: the first page doubles from {@value #FIRST_PAGE_BYTES} bytes up to a
     * full page (thousands of partitions each hold a few records in most windows), then whole pages
     * follow, so every page but the last is {@value #PAGE_BYTES} bytes and a position's page is a division.
     */
    private void grow(int wanted) {
        if (pageCount == 1 && pages[0].length < PAGE_BYTES) {
            pages[0] = Arrays.copyOf(pages[0], (int) Math.min(PAGE_BYTES,
                    Math.max(pages[0].length * 2L, (long) pageUsed + wanted)));
            return;
        }
        if (pageCount == pages.length) {
            pages = Arrays.copyOf(pages, pageCount * 2);
        }
        int length = pageCount == 0 ? Math.min(PAGE_BYTES, Math.max(FIRST_PAGE_BYTES, wanted)) : PAGE_BYTES;
        pages[pageCount] = new byte[length];
        pageCount++;
        pageUsed = 0;
    }

    public String partition() {
        return partition;
    }

    public String partitionId() {
        return partitionId;
    }

    public String encoding() {
        return encoding;
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public long offset(int i) {
        return offsets[checked(i)];
    }

    public long stamp(int i) {
        return stamps[checked(i)];
    }

    public int weight(int i) {
        return weights[checked(i)];
    }

    /** The bytes the run holds, all records. */
    public long bytes() {
        return bytes;
    }


    /** How many records from the start are stamped at or below {@code stamp}. */
    public int countAtOrBelow(long stamp) {
        return endOfStamp(stamp, 0, size);
    }

    /** The first index in {@code [from, to)} stamped above {@code stamp} ({@code to} when none is). */
    int endOfStamp(long stamp, int from, int to) {
        int low = from;
        int high = to;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (stamps[mid] <= stamp) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }

    /** The size-cut weight of all records. */
    public long weight() {
        return totalWeight;
    }

    /** The records {@code [from, to)}, fixed now, for the window that closes with them. */
    public RunSlice slice(int from, int to) {
        if (from < 0 || to > size || from >= to) {
            throw new IndexOutOfBoundsException("slice [" + from + ", " + to + ") of a run of " + size + " records");
        }
        sealed = true;
        return new RunSlice(this, from, to);
    }

    /**
     * The records {@code [0, to)} to be read at once by the thread adding to the run, which stays open:
     * what a size cut looks at while the window is open. Never handed on, since the run may grow
     * (only a {@link #slice} fixes its records for another thread).
     */
    public RunSlice glance(int to) {
        if (to < 1 || to > size) {
            throw new IndexOutOfBoundsException("glance at [0, " + to + ") of a run of " + size + " records");
        }
        return new RunSlice(this, 0, to);
    }

    /** All records so far. */
    public RunSlice all() {
        return slice(0, size);
    }

    /** A new run holding a copy of the records {@code [from, size)}: what stays open when a window closes early. */
    public RecordRun tail(int from) {
        RecordRun tail = new RecordRun(partition, partitionId, encoding);
        byte[] scratch = new byte[0];
        for (int i = from; i < size; i++) {
            int length = (int) (ends[i] - start(i));
            if (scratch.length < length) {
                scratch = new byte[Math.max(length, 256)];
            }
            read(start(i), scratch, 0, length);
            tail.add(offsets[i], stamps[i], weights[i], scratch, 0, length);
        }
        return tail;
    }

    long start(int i) {
        return i == 0 ? 0 : ends[i - 1];
    }

    long end(int i) {
        return ends[i];
    }

    /** Copies the run's bytes {@code [at, at + length)} into {@code dst}. */
    void read(long at, byte[] dst, int dstFrom, int length) {
        long position = at;
        int to = dstFrom;
        int left = length;
        while (left > 0) {
            int page = (int) (position / PAGE_BYTES);
            int within = (int) (position % PAGE_BYTES);
            int n = Math.min(left, PAGE_BYTES - within);
            System.arraycopy(pages[page], within, dst, to, n);
            position += n;
            to += n;
            left -= n;
        }
    }

    /** Writes the run's bytes {@code [from, to)} to {@code out}, page by page. */
    void writeTo(long from, long to, OutputStream out) throws IOException {
        long position = from;
        while (position < to) {
            int page = (int) (position / PAGE_BYTES);
            int within = (int) (position % PAGE_BYTES);
            int n = (int) Math.min(to - position, PAGE_BYTES - within);
            out.write(pages[page], within, n);
            position += n;
        }
    }

    private int checked(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException("record " + i + " of a run of " + size);
        }
        return i;
    }
}
