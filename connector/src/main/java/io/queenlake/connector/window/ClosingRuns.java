package io.queenlake.connector.window;

import io.queenlake.format.model.LostRange;
import io.queenlake.format.run.RunSlice;
import java.util.List;

/**
 * The records of a closing window as sealed runs, with the lost ranges riding on a few of them:
 * what {@link WindowSlicer} cuts into numbered windows.
 *
 * @param weight the records' size-cut weight, in total
 * @param kept the bytes the runs keep, in total
 */
record ClosingRuns(List<RunSlice> slices, List<Lost> lost, int size, long weight, long kept) {

    /** Record {@code index} of {@code slice}, stamped {@code stamp}, carries {@code ranges}. */
    record Lost(RunSlice slice, int index, long stamp, List<LostRange> ranges) {}

    ClosingRuns {
        slices = List.copyOf(slices);
        lost = List.copyOf(lost);
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** The lowest stamp among the records ({@link Long#MAX_VALUE} when there is none). */
    long firstStamp() {
        long first = Long.MAX_VALUE;
        for (RunSlice slice : slices) {
            first = Math.min(first, slice.firstStamp());
        }
        return first;
    }
}
