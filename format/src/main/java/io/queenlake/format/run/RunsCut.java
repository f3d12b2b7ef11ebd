package io.queenlake.format.run;

import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The size cut of {@code SizeCut} over runs: the same cut stamps for the same records, found by
 * merging the runs by stamp (each run's stamps never fall) instead of sorting every record's.
 */
public final class RunsCut {

    private RunsCut() {}

    /** The stamps at which a new window starts, ascending; empty when no running weight reaches the target. */
    public static long[] cutStamps(List<RunSlice> slices, long targetBytes) {
        if (targetBytes < 1) {
            throw new IllegalArgumentException("the size-cut target must be at least 1 byte, got " + targetBytes);
        }
        int[] next = new int[slices.size()];
        PriorityQueue<Integer> byStamp = new PriorityQueue<>(Math.max(1, slices.size()),
                (a, b) -> Long.compare(slices.get(a).stamp(next[a]), slices.get(b).stamp(next[b])));
        for (int s = 0; s < slices.size(); s++) {
            byStamp.add(s);
        }
        long[] cuts = new long[8];
        int cutCount = 0;
        long running = 0;
        while (!byStamp.isEmpty()) {
            long stamp = slices.get(byStamp.peek()).stamp(next[byStamp.peek()]);
            long group = 0;
            while (!byStamp.isEmpty() && slices.get(byStamp.peek()).stamp(next[byStamp.peek()]) == stamp) {
                int s = byStamp.poll();
                RunSlice slice = slices.get(s);
                while (next[s] < slice.size() && slice.stamp(next[s]) == stamp) {
                    group += slice.weight(next[s]);
                    next[s]++;
                }
                if (next[s] < slice.size()) {
                    byStamp.add(s);
                }
            }
            if (running >= targetBytes) {
                if (cutCount == cuts.length) {
                    cuts = Arrays.copyOf(cuts, cutCount * 2);
                }
                cuts[cutCount++] = stamp;
                running = 0;
            }
            running += group;
        }
        return Arrays.copyOf(cuts, cutCount);
    }
}
