package io.queenlake.format.window;

import io.queenlake.format.model.LogRecord;
import io.queenlake.format.run.RunSlice;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * Cuts a window whose weight reaches the target into consecutive windows at record-stamp
 * boundaries (docs/ARCHITECTURE.md "Windows"): scan the records in {@code ts} order, keep every group of
 * equal {@code ts} together, and cut at the first {@code ts} where the running weight has already
 * reached the target; then start again from zero. The weight of a record is
 * {@link LogRecord#weight()} (its payload bytes, at least one). Cut points depend on the record
 * set alone, never on arrival order, and no slice is ever empty.
 */
public final class SizeCut {

    private SizeCut() {}

    /** One window after cutting: {@code [tStart, tEnd)} and its records, in their input order. */
    public record Slice(long tStart, long tEnd, List<LogRecord> records) {
        public Slice {
            records = List.copyOf(records);
        }
    }

    /** The stamps at which a new window starts, ascending; empty when no cut is needed. */
    public static long[] cutStamps(Collection<LogRecord> records, long targetBytes) {
        Cuts cuts = new Cuts(targetBytes);
        long total = 0;
        for (LogRecord r : records) {
            total += r.weight();
        }
        if (total < targetBytes) {
            return new long[0]; // no running weight can reach the target: the common case, without a sort
        }
        int n = records.size();
        long[] ts = new long[n];
        int i = 0;
        for (LogRecord r : records) {
            ts[i++] = r.tsMicros();
        }
        long[] stamps = ts.clone();
        Arrays.sort(stamps);
        int distinct = 0;
        for (i = 0; i < n; i++) {
            if (i == 0 || stamps[i] != stamps[distinct - 1]) {
                stamps[distinct++] = stamps[i];
            }
        }
        long[] weightAt = new long[distinct];
        i = 0;
        for (LogRecord r : records) {
            weightAt[Arrays.binarySearch(stamps, 0, distinct, ts[i++])] += r.weight();
        }
        for (int g = 0; g < distinct; g++) {
            cuts.group(stamps[g], weightAt[g]);
        }
        return cuts.stamps();
    }

    /**
     * The same cut stamps for records kept as runs ({@link RunSlice}), found by merging the runs by
     * stamp (each run's stamps never fall) instead of sorting every record's: a heap of run
     * indexes keyed by each run's next stamp, with the records of one stamp taken from a run in one go.
     */
    public static long[] cutStamps(List<RunSlice> runs, long targetBytes) {
        Cuts cuts = new Cuts(targetBytes);
        RunMerge merge = new RunMerge(runs);
        while (!merge.isEmpty()) {
            long stamp = merge.nextStamp();
            long group = 0;
            while (!merge.isEmpty() && merge.nextStamp() == stamp) {
                group += merge.takeStamp(stamp);
            }
            cuts.group(stamp, group);
        }
        return cuts.stamps();
    }

    /** A min-heap of runs by their next record's stamp, without boxing: the size cut's merge. */
    private static final class RunMerge {
        private final RunSlice[] runs;
        private final int[] next;
        private final long[] head;
        private final int[] heap;
        private int size;

        RunMerge(List<RunSlice> slices) {
            runs = slices.toArray(new RunSlice[0]);
            next = new int[runs.length];
            head = new long[runs.length];
            heap = new int[runs.length];
            for (int r = 0; r < runs.length; r++) {
                if (runs[r].size() > 0) {
                    head[r] = runs[r].stamp(0);
                    heap[size] = r;
                    siftUp(size++);
                }
            }
        }

        boolean isEmpty() {
            return size == 0;
        }

        long nextStamp() {
            return head[heap[0]];
        }

        /** Takes the records stamped {@code stamp} from the run on top; returns their weight. */
        long takeStamp(long stamp) {
            int r = heap[0];
            RunSlice run = runs[r];
            int i = next[r];
            int end = run.size();
            long weight = 0;
            while (i < end && run.stamp(i) == stamp) {
                weight += run.weight(i);
                i++;
            }
            next[r] = i;
            if (i < end) {
                head[r] = run.stamp(i);
            } else {
                heap[0] = heap[--size];
            }
            if (size > 0) {
                siftDown(0);
            }
            return weight;
        }

        private void siftUp(int at) {
            int r = heap[at];
            while (at > 0) {
                int parent = (at - 1) >>> 1;
                if (head[heap[parent]] <= head[r]) {
                    break;
                }
                heap[at] = heap[parent];
                at = parent;
            }
            heap[at] = r;
        }

        private void siftDown(int at) {
            int r = heap[at];
            int half = size >>> 1;
            while (at < half) {
                int child = 2 * at + 1;
                if (child + 1 < size && head[heap[child + 1]] < head[heap[child]]) {
                    child++;
                }
                if (head[r] <= head[heap[child]]) {
                    break;
                }
                heap[at] = heap[child];
                at = child;
            }
            heap[at] = r;
        }
    }

    /** The rule itself, fed each distinct stamp in ascending order with the weight of its records. */
    private static final class Cuts {
        private final long target;
        private long[] stamps = new long[8];
        private int count;
        private long running;

        Cuts(long targetBytes) {
            if (targetBytes < 1) {
                throw new IllegalArgumentException("the size-cut target must be at least 1 byte, got " + targetBytes);
            }
            this.target = targetBytes;
        }

        void group(long stamp, long weight) {
            if (running >= target) {
                if (count == stamps.length) {
                    stamps = Arrays.copyOf(stamps, count * 2);
                }
                stamps[count++] = stamp;
                running = 0;
            }
            running += weight;
        }

        long[] stamps() {
            return Arrays.copyOf(stamps, count);
        }
    }

    /**
     * Cuts the window {@code [tStart, tEnd)} holding {@code records} (any order); a window under
     * the target comes back whole.
     */
    public static List<Slice> cut(long tStart, long tEnd, Collection<LogRecord> records, long targetBytes) {
        long[] cuts = cutStamps(records, targetBytes);
        requireInside(tStart, tEnd, records);
        if (cuts.length == 0) {
            return List.of(new Slice(tStart, tEnd, List.copyOf(records)));
        }
        List<List<LogRecord>> parts = new ArrayList<>(cuts.length + 1);
        for (int i = 0; i <= cuts.length; i++) {
            parts.add(new ArrayList<>());
        }
        for (LogRecord r : records) {
            int slot = Arrays.binarySearch(cuts, r.tsMicros());
            parts.get(slot >= 0 ? slot + 1 : -slot - 1).add(r);
        }
        List<Slice> slices = new ArrayList<>(parts.size());
        for (int i = 0; i < parts.size(); i++) {
            long start = i == 0 ? tStart : cuts[i - 1];
            long end = i == cuts.length ? tEnd : cuts[i];
            slices.add(new Slice(start, end, parts.get(i)));
        }
        return slices;
    }

    private static void requireInside(long tStart, long tEnd, Collection<LogRecord> records) {
        for (LogRecord r : records) {
            if (r.tsMicros() < tStart || r.tsMicros() >= tEnd) {
                throw new IllegalArgumentException("record " + r + " lies outside the window [" + tStart + ", "
                        + tEnd + "): only records of the window may be cut");
            }
        }
    }
}
