package io.queenlake.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

/**
 * Times a candidate against its baseline, single-threaded: warm-up rounds of both, then timed
 * rounds in which the two run back to back, so load from other processes on a shared machine falls
 * on both alike. Answers the medians of each and the median of the per-round ratios, by the wall
 * clock and by the thread's CPU time (the per-core cost, which time spent descheduled by other
 * processes does not inflate; zstd's native code runs on the same thread and is counted).
 */
final class Stopwatch {
    interface Task {
        void run() throws Exception;
    }

    /** Median nanoseconds of each side and the median of baseline time / candidate time per round. */
    record Comparison(long baselineNanos, long candidateNanos, double ratio,
            long baselineCpuNanos, long candidateCpuNanos, double cpuRatio) {}

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

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
        long[][] wall = new long[2][rounds];
        long[][] cpu = new long[2][rounds];
        double[] ratios = new double[rounds];
        double[] cpuRatios = new double[rounds];
        for (int i = 0; i < rounds; i++) {
            time(baseline, wall[0], cpu[0], i);
            time(candidate, wall[1], cpu[1], i);
            ratios[i] = (double) wall[0][i] / wall[1][i];
            cpuRatios[i] = (double) cpu[0][i] / cpu[1][i];
        }
        return new Comparison(median(wall[0]), median(wall[1]), median(ratios),
                median(cpu[0]), median(cpu[1]), median(cpuRatios));
    }

    private static void time(Task task, long[] wall, long[] cpu, int round) throws Exception {
        long cpuStart = THREADS.getCurrentThreadCpuTime();
        long start = System.nanoTime();
        task.run();
        wall[round] = System.nanoTime() - start;
        cpu[round] = THREADS.getCurrentThreadCpuTime() - cpuStart;
    }

    private static long median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
