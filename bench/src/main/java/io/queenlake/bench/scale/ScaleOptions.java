package io.queenlake.bench.scale;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * ScaleBench's arguments, each {@code name=value} and all optional; see {@link #USAGE}.
 *
 * @param queueCounts one run per count, in this order, each on a fresh dev broker and S3 server
 * @param recordIntervalMs each queue gets one record this often, its partitions in turn
 * @param windowMs the job's {@code QUEEN_S3_MAX_WINDOW_MS}
 * @param guardMs the job's {@code QUEEN_S3_SAFE_GUARD_MS}
 * @param settle how long to wait after every queue has its first window before the steady state
 * @param stateDir whether the job gets {@code run --state-dir} (checkpoints in files, as a cluster's
 *     {@code execution.checkpointing.dir}) or not (the JobManager's memory, at most 5 MiB of state)
 * @param jobJavaOpts the job JVM's options, as {@code QUEEN_LAKE_JAVA_OPTS} gives them to {@code ./queen-lake}
 */
record ScaleOptions(Path dir, Path repo, List<Integer> queueCounts, int partitions, long recordIntervalMs, long windowMs,
        long guardMs, long checkpointMs, Duration steady, Duration settle, Duration firstWindowTimeout, long pollMs,
        long s3LatencyMs, long kvLatencyMs, int kvWriteRate, boolean stateDir, List<String> jobJavaOpts, String invocation) {

    static final String USAGE = "arguments (all optional, name=value): queues=50 (a comma list: one run per count)"
            + " partitions=10 record-interval-ms=2000 window-ms=5000 guard-ms=0 checkpoint-ms=2000 steady-s=75"
            + " settle-s=10 first-window-timeout-s=360 poll-ms=2000 s3-latency-ms=0 kv-latency-ms=0 kv-write-rate=0"
            + " state-dir=false job-java-opts=-Xmx8g (space-separated) dir=bench/target/scale repo=.";

    private static final List<String> NAMES = List.of("queues", "partitions", "record-interval-ms", "window-ms", "guard-ms",
            "checkpoint-ms", "steady-s", "settle-s", "first-window-timeout-s", "poll-ms", "s3-latency-ms", "kv-latency-ms",
            "kv-write-rate", "state-dir", "job-java-opts", "dir", "repo");

    static ScaleOptions parse(String[] args) {
        Map<String, String> given = new HashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            String name = eq < 0 ? arg : arg.substring(0, eq);
            if (eq < 0 || !NAMES.contains(name)) {
                throw new IllegalArgumentException("'" + arg + "' is not a ScaleBench argument: " + USAGE);
            }
            given.put(name, arg.substring(eq + 1));
        }
        List<Integer> counts = new ArrayList<>();
        for (String q : given.getOrDefault("queues", "50").split(",")) {
            counts.add((int) number("queues", q.trim(), 1));
        }
        ScaleOptions options = new ScaleOptions(
                Path.of(given.getOrDefault("dir", "bench/target/scale")).toAbsolutePath(),
                Path.of(given.getOrDefault("repo", ".")).toAbsolutePath().normalize(),
                List.copyOf(counts),
                (int) number(given, "partitions", 10, 1),
                number(given, "record-interval-ms", 2_000, 1),
                number(given, "window-ms", 5_000, 1),
                number(given, "guard-ms", 0, 0),
                number(given, "checkpoint-ms", 2_000, 100),
                Duration.ofSeconds(number(given, "steady-s", 75, 1)),
                Duration.ofSeconds(number(given, "settle-s", 10, 0)),
                Duration.ofSeconds(number(given, "first-window-timeout-s", 360, 1)),
                number(given, "poll-ms", 2_000, 100),
                number(given, "s3-latency-ms", 0, 0),
                number(given, "kv-latency-ms", 0, 0),
                (int) number(given, "kv-write-rate", 0, 0),
                Boolean.parseBoolean(given.getOrDefault("state-dir", "false")),
                Arrays.stream(given.getOrDefault("job-java-opts", "-Xmx8g").trim().split("\\s+")).filter(s -> !s.isEmpty()).toList(),
                Long.toString(System.currentTimeMillis() / 1000 % 100_000_000, 36).toLowerCase(Locale.ROOT));
        if (options.recordIntervalMs() > options.windowMs()) {
            System.out.println("note: record-interval-ms above window-ms leaves windows without records;"
                    + " 'produced' counts one window a record interval per queue then");
        }
        return options;
    }

    /** The floor of the pointer's trail behind the wall clock: a window, the safe guard and a checkpoint interval. */
    long floorMs() {
        return windowMs + guardMs + checkpointMs;
    }

    /** Windows with records per second for {@code queues} queues: one per window, or one per record when fewer. */
    double producedPerSecond(int queues) {
        return queues * 1000.0 / Math.max(windowMs, recordIntervalMs);
    }

    String describe(int queues) {
        return String.format(Locale.ROOT, "%,d queues x %d partitions, a record every %d ms per queue (%,.0f records/s);"
                        + " window %d ms, safe guard %d ms, checkpoint every %d ms; dev S3 latency %d ms, dev broker KV"
                        + " latency %d ms, KV write rate %s; checkpoints %s; steady state %d s after %d s of settling; first windows within %d s",
                queues, partitions, recordIntervalMs, queues * 1000.0 / recordIntervalMs, windowMs, guardMs, checkpointMs,
                s3LatencyMs, kvLatencyMs, kvWriteRate == 0 ? "unlimited" : kvWriteRate + "/s",
                stateDir ? "in files (--state-dir)" : "in the JobManager's memory (no --state-dir)", steady.toSeconds(),
                settle.toSeconds(), firstWindowTimeout.toSeconds());
    }

    private static long number(Map<String, String> given, String name, long fallback, long min) {
        String v = given.get(name);
        return v == null ? fallback : number(name, v, min);
    }

    private static long number(String name, String v, long min) {
        try {
            long n = Long.parseLong(v.replace("_", ""));
            if (n < min) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + "=" + v + " is not a whole number >= " + min + ": " + USAGE);
        }
    }
}
