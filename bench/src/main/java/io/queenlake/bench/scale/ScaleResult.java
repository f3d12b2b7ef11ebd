package io.queenlake.bench.scale;

import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One run's figures, and their Markdown table. Times of the first-window phase are from the job's
 * submission (its {@code start-time} in the REST API); the rest are over the steady state.
 *
 * @param firstWindowAll seconds until every queue had a commit pointer, NaN when some had none by the timeout
 * @param firstWindowMedian seconds until half the queues had one, NaN when fewer than half did
 * @param trail the pointer's trail behind the wall clock in seconds, over queues and polls
 * @param committedWindows windows committed in the steady state (the pointers' k moved by this much in all)
 * @param checkpoints completed checkpoints triggered in the steady state, end-to-end ms
 * @param backPressured the source vertex's backPressuredTimeMsPerSecond (its busiest subtask) at each poll
 * @param busy each vertex's busyTimeMsPerSecond (its busiest subtask's) at each poll, by a short name
 * @param gauges the source's watermark lag and the committer's pending committables at each poll
 * @param restFrozen whether the REST API's task metrics (backpressure, busy, the gauges) stood still: stale
 * @param peakHeapBytes used heap of the job JVM at its highest poll; {@code peakLiveHeapBytes} after a collection
 * @param threadCores the job JVM's busiest thread groups in the steady state, in cores
 * @param s3Requests S3 requests served in the steady state, by operation
 * @param kvRefused KV write calls the broker refused with 429 in the steady state, and over the whole run
 * @param kvWriteCalls KV calls holding a write that the broker served in the steady state (the commits'
 *     intents and pointers, and the lease rounds)
 * @param cpuJob cores the job's JVM used in the steady state; {@code cpuBench} this JVM's (broker, S3 server, producer)
 * @param load the machine's load average (1 min) at the steady state's start and end: other work on it
 */
record ScaleResult(int queues, ScaleOptions options, String parallelism, double launchToSubmit, double firstWindowAll,
        double firstWindowMedian, int queuesWithWindow, double steadySeconds, Stats trail, long committedWindows,
        int queuesWithoutPointer, Stats checkpoints, long failedCheckpoints, double maxCheckpointWholeRun,
        Stats backPressured, Map<String, Stats> busy, Map<String, Stats> gauges, boolean restFrozen, Map<String, Long> s3Requests, long kvRefused, long kvRefusedWholeRun,
        long kvWriteCalls, long peakHeapBytes, long peakLiveHeapBytes, long heapMaxBytes, long peakRssKiB, double cpuJob,
        Map<String, Double> threadCores, double cpuBench, double[] load, long restarts,
        String failure, long pushed, long producerMaxBehindMs) {

    double committedPerSecond() {
        return committedWindows / steadySeconds;
    }

    String table() {
        double floor = options.floorMs() / 1e3;
        long s3 = ScaleStack.total(s3Requests);
        double perWindow = committedWindows == 0 ? Double.NaN : (double) s3 / committedWindows;
        String byOp = s3Requests.entrySet().stream()
                .map(e -> String.format(Locale.ROOT, "%s %.2f", e.getKey(), (double) e.getValue() / Math.max(1, committedWindows)))
                .collect(Collectors.joining(", "));
        StringBuilder t = new StringBuilder();
        t.append(String.format(Locale.ROOT, "| Q = %,d (%,d partitions) | measured | floor / target |%n|---|---|---|%n",
                queues, queues * options.partitions()));
        row(t, "first window of every queue (KV pointer exists), s after submission",
                Double.isNaN(firstWindowAll)
                        ? String.format(Locale.ROOT, "**%,d of %,d queues** within %d s (half of them: %s)", queuesWithWindow,
                                queues, options.firstWindowTimeout().toSeconds(), seconds(firstWindowMedian))
                        : String.format(Locale.ROOT, "%.1f (half of them: %.1f); submission %.1f s after launch",
                                firstWindowAll, firstWindowMedian, launchToSubmit),
                "(b) every queue within 180");
        row(t, "pointer trail behind the wall clock, s: p50 / p95 / max",
                String.format(Locale.ROOT, "%.1f / %.1f / %.1f (%,d samples)%s", trail.p50(), trail.p95(), trail.max(), trail.n(),
                        queuesWithoutPointer == 0 ? "" : String.format(Locale.ROOT, "; %,d queues still without a pointer",
                                queuesWithoutPointer)),
                String.format(Locale.ROOT, "floor %.1f (window + guard + checkpoint); (a) p95 <= %.1f, (b) p95 <= %.1f",
                        floor, floor + 5, floor + 15));
        row(t, "windows committed / produced per second",
                String.format(Locale.ROOT, "%.1f / %.1f (%,d windows in %.0f s)", committedPerSecond(),
                        options.producedPerSecond(queues), committedWindows, steadySeconds),
                "(a) equal");
        row(t, "checkpoint duration, s: p50 / max",
                String.format(Locale.ROOT, "%.2f / %.2f (%d completed, %d failed; max over the whole run %.2f)",
                        checkpoints.p50() / 1e3, checkpoints.max() / 1e3, checkpoints.n(), failedCheckpoints,
                        maxCheckpointWholeRun / 1e3),
                "(a) max < 2");
        String stale = restFrozen ? " **stale: the REST API's task metrics stood still (Flink's metric dump outgrew its"
                + " frame size)**" : "";
        row(t, "source backpressure, ms/s: mean / max over polls",
                String.format(Locale.ROOT, "%.0f / %.0f (%.1f%% / %.1f%%)", backPressured.mean(),
                        backPressured.max(), backPressured.mean() / 10, backPressured.max() / 10) + stale,
                "(a) < 10%");
        row(t, "busy, ms/s: mean / max over polls", meanMax(busy) + stale, "");
        row(t, "where windows wait: mean / max over polls", meanMax(gauges) + stale, "");
        row(t, "KV write calls: per committed window, per second",
                String.format(Locale.ROOT, "%.3f, %.1f (lease rounds included; reads not counted: the bench reads the"
                        + " pointers too); 429 refusals: %,d (%,d over the whole run)",
                        committedWindows == 0 ? 0.0 : (double) kvWriteCalls / committedWindows, kvWriteCalls / steadySeconds,
                        kvRefused, kvRefusedWholeRun),
                "(b) under 100 a second, no 429 left unretried");
        row(t, "S3 requests per committed window", String.format(Locale.ROOT, "%.2f (%s)", perWindow, byOp), "");
        row(t, "job JVM: heap used peak (live after GC) / RSS peak, MB",
                String.format(Locale.ROOT, "%,d (%,d) of %,d / %,d", peakHeapBytes >> 20, peakLiveHeapBytes >> 20,
                        heapMaxBytes >> 20, peakRssKiB >> 10), "");
        row(t, "CPU, cores: job JVM / bench JVM (broker, S3, producer); load average",
                String.format(Locale.ROOT, "%.2f / %.2f; %.1f at the start, %.1f at the end", cpuJob, cpuBench, load[0], load[1]),
                "2 cores");
        row(t, "job JVM's busiest threads, cores", threadCores.entrySet().stream()
                .map(e -> String.format(Locale.ROOT, "%s %.2f", e.getKey().replace("|", "\\|"), e.getValue()))
                .collect(Collectors.joining("; ")), "");
        row(t, "job: parallelism, restarts",
                parallelism + "; " + restarts + (failure == null ? "" : " (" + failure.replace("|", "\\|") + ")"), "");
        row(t, "producer: records pushed, latest push after due, ms",
                String.format(Locale.ROOT, "%,d, %,d", pushed, producerMaxBehindMs), "");
        return t.toString();
    }

    private static String meanMax(Map<String, Stats> series) {
        return series.entrySet().stream()
                .map(e -> String.format(Locale.ROOT, "%s %,.0f / %,.0f", e.getKey(), e.getValue().mean(), e.getValue().max()))
                .collect(Collectors.joining("; "));
    }

    private static String seconds(double s) {
        return Double.isNaN(s) ? "not reached" : String.format(Locale.ROOT, "%.1f s", s);
    }

    private static void row(StringBuilder t, String what, String measured, String target) {
        t.append("| ").append(what).append(" | ").append(measured).append(" | ").append(target).append(" |\n");
    }
}
