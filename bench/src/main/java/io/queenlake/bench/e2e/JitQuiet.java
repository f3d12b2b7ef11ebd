package io.queenlake.bench.e2e;

import java.time.Duration;
import java.util.Locale;

/**
 * The JIT's CPU time, and a wait for its queue to drain before a measured run. On two cores C2 runs
 * behind: what the warm-ups, the last run's read-back and the cluster's start made hot may still be
 * queued when the next run starts, and that run would pay for compiling code that is not its own.
 * The JVM's own "compilation time" is wall time (inflated when both cores are busy), so the CPU
 * time is {@link ThreadCpu}'s; without {@code /proc} it is 0 and the wait is one second. On two
 * cores the JVM keeps one C1 and one C2 thread for its whole life, but with more cores idle C2
 * threads exit and take their CPU time with them, so run with
 * {@code -XX:-UseDynamicNumberOfCompilerThreads} there.
 */
final class JitQuiet {

    /** The compiler threads may be busy this share of a second and still count as quiet. */
    private static final double QUIET_SHARE = 0.05;
    private static final long STEP_MS = 1_000;

    private JitQuiet() {}

    /** CPU time of this JVM's C1 and C2 compiler threads so far, in nanoseconds. */
    static long compilerCpuNanos() {
        return ThreadCpu.nanos(ThreadCpu::compiler);
    }

    /** Returns once a whole second passes with the compiler threads busy under 5% of it, or at {@code max}. */
    static String await(Duration max) throws InterruptedException {
        long start = System.nanoTime();
        long before = compilerCpuNanos();
        long busy;
        do {
            long last = compilerCpuNanos();
            Thread.sleep(STEP_MS);
            busy = compilerCpuNanos() - last;
        } while (busy > QUIET_SHARE * STEP_MS * 1_000_000 && System.nanoTime() - start < max.toNanos());
        return String.format(Locale.ROOT, "JIT: waited %.1f s for its queue to drain (%.1f CPU s of compiling)%s",
                (System.nanoTime() - start) / 1e9, (compilerCpuNanos() - before) / 1e9,
                busy > QUIET_SHARE * STEP_MS * 1_000_000 ? ", still compiling at the limit" : "");
    }
}
