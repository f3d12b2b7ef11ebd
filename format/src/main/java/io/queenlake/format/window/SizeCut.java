package io.queenlake.format.window;

import io.queenlake.format.model.LogRecord;
import io.queenlake.format.run.RunSlice;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.PriorityQueue;

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
     * stamp (each run's stamps never fall) instead of sorting every record's.
     */
    public static long[] cutStamps(List<RunSlice> runs, long targetBytes) {
        Cuts cuts = new Cuts(targetBytes);
        int[] next = new int[runs.size()];
        PriorityQueue<Integer> byStamp = new PriorityQueue<>(Math.max(1, runs.size()),
                (a, b) -> Long.compare(runs.get(a).stamp(next[a]), runs.get(b).stamp(next[b])));
        for (int r = 0; r < runs.size(); r++) {
            byStamp.add(r);
        }
        while (!byStamp.isEmpty()) {
            long stamp = runs.get(byStamp.peek()).stamp(next[byStamp.peek()]);
            long group = 0;
            while (!byStamp.isEmpty() && runs.get(byStamp.peek()).stamp(next[byStamp.peek()]) == stamp) {
                int r = byStamp.poll();
                RunSlice run = runs.get(r);
                while (next[r] < run.size() && run.stamp(next[r]) == stamp) {
                    group += run.weight(next[r]);
                    next[r]++;
                }
                if (next[r] < run.size()) {
                    byStamp.add(r);
                }
            }
            cuts.group(stamp, group);
        }
        return cuts.stamps();
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
