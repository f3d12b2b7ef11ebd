package io.queenlake.bench;

import java.util.Arrays;

/**
 * Times a candidate against its baseline, single-threaded: warm-up rounds of both, then timed
 * rounds in which the two run back to back, so load from other processes on a shared machine falls
 * on both alike. Answers the medians of each and the median of the per-round ratios.
 */
final class Stopwatch {
    interface Task {
        void run() throws Exception;
    }

    /** Median nanoseconds of each side and the median of baseline time / candidate time per round. */
    record Comparison(long baselineNanos, long candidateNanos, double ratio) {}

    private final int warmups;
    private final int rounds;

    Stopwatch(int warmups, int rounds) {
        this.warmups = warmups;
        this.rounds = rounds;
    }

    Comparison compare(Task baseline, Task candidate) throws Exception {
        for (int i = 0; i < warmups; i++) {
            baseline.run();
            candidate.run();
        }
        long[] base = new long[rounds];
        long[] cand = new long[rounds];
        double[] ratios = new double[rounds];
        for (int i = 0; i < rounds; i++) {
            base[i] = time(baseline);
            cand[i] = time(candidate);
            ratios[i] = (double) base[i] / cand[i];
        }
        Arrays.sort(base);
        Arrays.sort(cand);
        Arrays.sort(ratios);
        return new Comparison(base[rounds / 2], cand[rounds / 2], ratios[rounds / 2]);
    }

    private static long time(Task task) throws Exception {
        long start = System.nanoTime();
        task.run();
        return System.nanoTime() - start;
    }
}
