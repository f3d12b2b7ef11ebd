package io.queenlake.format.window;

import io.queenlake.format.model.LostRange;
import io.queenlake.format.run.RunSlice;
import java.util.List;

/**
 * One closed window as the runs its open window kept: per partition incarnation its records
 * already encoded for the format, in offset order (any order across runs), and the lost ranges
 * found while reading it.
 */
public record WindowRuns(String tenant, String queue, long k, long tStart, long tEnd, List<RunSlice> runs,
        List<LostRange> lost) implements WindowContent {

    public WindowRuns {
        runs = List.copyOf(runs);
        lost = List.copyOf(lost);
        WindowContent.requireNumbered(tenant, queue, k, tStart, tEnd, runs.isEmpty());
        for (RunSlice run : runs) {
            // A run's stamps never fall: its first and last bound all of them.
            if (run.firstStamp() < tStart || run.lastStamp() >= tEnd) {
                throw new IllegalArgumentException(run + " stamped " + run.firstStamp() + ".." + run.lastStamp()
                        + " lies outside window " + k + " [" + tStart + ", " + tEnd + ") of queue '" + queue + "'");
            }
        }
    }

    @Override
    public int recordCount() {
        int count = 0;
        for (RunSlice run : runs) {
            count += run.size();
        }
        return count;
    }

    @Override
    public long weight() {
        long weight = 0;
        for (RunSlice run : runs) {
            weight += run.weight();
        }
        return weight;
    }
}
