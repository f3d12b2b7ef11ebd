package io.queenlake.bench.e2e;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The benchmark's arguments, each {@code name=value} and all optional; see {@link #USAGE}.
 *
 * @param queueSuffixes the queues of every corpus are {@code <corpus>-<suffix>}: Flink places each
 *     queue's windows on the subtask its name hashes to, so the names decide whether two queues
 *     share one window subtask
 * @param rounds how many times each corpus's peers run, every other round in reverse order, so that no
 *     peer always runs first (the first sink run of an invocation compiles the S3 paths the others reuse)
 *     and the table can show a median rather than one draw of a noisy machine; an even count runs as
 *     many rounds in each order
 * @param warmupRounds unmeasured rounds of the main corpus before the measured ones: a 2 M-record run
 *     still had the JIT compiling the lake's code (a fifth of the run's CPU in the first round, a tenth
 *     after), and a job mirroring its queues runs long past that
 * @param invocation a name unique to this invocation, so every run gets a fresh bucket and sink
 * @param configs the Flink configurations every peer runs in, each in every round ({@link RunConfig})
 * @param lag which lag runs: the live queues alone, the live queues beside a backfill, or both
 * @param backfillRecords the backfill queue's backlog (lag=backfill), pushed so that its stamps span
 *     at least {@code backfillWindows} windows
 */
record BenchOptions(Path dir, int records, int partitions, int warmupRecords, int wideRecords, int widePartitions, long windowMs,
        Duration checkpointInterval, int parallelism, Duration runTimeout, int pushThreads, List<Peer> peers,
        List<String> queueSuffixes, boolean wide, int lagRate, int lagSeconds, int rounds,
        int warmupRounds, String invocation, List<RunConfig> configs, LagMode lag, int backfillRecords,
        int backfillWindows) {

    /** Which lag runs an invocation makes. */
    enum LagMode {
        LIVE, BACKFILL, BOTH;

        boolean live() {
            return this != BACKFILL;
        }

        boolean backfill() {
            return this != LIVE;
        }
    }

    static final String USAGE = "arguments (all optional, name=value): dir=bench/target/e2e records=2000000 partitions=200"
            + " warmup-records=20000 wide-records=200000 wide-partitions=20000 window-ms=1000 checkpoint-ms=1000 parallelism=2"
            + " run-timeout-s=300 push-threads=4 peers=ceiling,lake-jsonl,filesink-jsonl-zstd,lake-parquet,filesink-parquet"
            + " queues=orders,refunds wide=true lag-rate=2000 lag-seconds=60 (lag-seconds=0 skips the lag run)"
            + " rounds=4 warmup-rounds=1 config=default (default|shipped|both; shipped reads flink-conf=flink-conf)"
            + " lag=live (live|backfill|both) backfill-records=2000000 backfill-windows=20";

    private static final Set<String> NAMES = Set.of("dir", "records", "partitions", "warmup-records", "wide-records", "wide-partitions",
            "window-ms", "checkpoint-ms", "parallelism", "run-timeout-s", "push-threads", "peers", "queues", "wide", "lag-rate",
            "lag-seconds", "rounds", "warmup-rounds", "config", "flink-conf", "lag", "backfill-records", "backfill-windows");

    static BenchOptions parse(String[] args) {
        Map<String, String> given = new HashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            String name = eq < 0 ? arg : arg.substring(0, eq);
            if (eq < 0 || !NAMES.contains(name)) {
                throw new IllegalArgumentException("'" + arg + "' is not a benchmark argument: " + USAGE);
            }
            given.put(name, arg.substring(eq + 1));
        }
        List<Peer> peers = new ArrayList<>();
        for (String id : given.getOrDefault("peers", "ceiling,lake-jsonl,filesink-jsonl-zstd,lake-parquet,filesink-parquet").split(",")) {
            peers.add(java.util.Arrays.stream(Peer.values()).filter(p -> p.id.equals(id.trim())).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("peer '" + id + "' is unknown: " + USAGE)));
        }
        BenchOptions options = new BenchOptions(
                Path.of(given.getOrDefault("dir", "bench/target/e2e")).toAbsolutePath(),
                number(given, "records", 2_000_000),
                number(given, "partitions", 200),
                number(given, "warmup-records", 20_000),
                number(given, "wide-records", 200_000),
                number(given, "wide-partitions", 20_000),
                number(given, "window-ms", 1_000),
                Duration.ofMillis(number(given, "checkpoint-ms", 1_000)),
                number(given, "parallelism", 2),
                Duration.ofSeconds(number(given, "run-timeout-s", 300)),
                number(given, "push-threads", 4),
                List.copyOf(peers),
                List.of(given.getOrDefault("queues", "orders,refunds").split(",")),
                Boolean.parseBoolean(given.getOrDefault("wide", "true")),
                number(given, "lag-rate", 2_000),
                number(given, "lag-seconds", 60),
                number(given, "rounds", 4),
                number(given, "warmup-rounds", 1),
                Long.toString(System.currentTimeMillis() / 1000 % 100_000_000, 36).toLowerCase(Locale.ROOT),
                RunConfig.parse(given.getOrDefault("config", "default"),
                        Path.of(given.getOrDefault("flink-conf", "flink-conf")).toAbsolutePath()),
                lagMode(given.getOrDefault("lag", "live")),
                number(given, "backfill-records", 2_000_000),
                number(given, "backfill-windows", 20));
        if (options.rounds() < 1) {
            throw new IllegalArgumentException("rounds=0 runs nothing: give 1 or more.");
        }
        // A corpus is named by its size: two of one size would share queues, buckets and commit pointers.
        if (options.warmupRecords() == options.records()) {
            throw new IllegalArgumentException("warmup-records must differ from records (" + options.records()
                    + "): the warm-up corpus would be the main one");
        }
        if (options.wideRecords() == options.records() && options.widePartitions() == options.partitions()) {
            throw new IllegalArgumentException("the wide corpus (wide-records, wide-partitions) must differ from the main one");
        }
        if (options.lag().backfill() && (options.backfillRecords() < 1 || options.backfillWindows() < 1)) {
            throw new IllegalArgumentException("lag=" + options.lag().name().toLowerCase(Locale.ROOT)
                    + " needs backfill-records and backfill-windows of 1 or more");
        }
        return options;
    }

    private static LagMode lagMode(String value) {
        try {
            return LagMode.valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("lag=" + value + ": give live, backfill or both");
        }
    }

    private static int number(Map<String, String> given, String name, int fallback) {
        String v = given.get(name);
        if (v == null) {
            return fallback;
        }
        try {
            int n = Integer.parseInt(v.replace("_", ""));
            if (n < 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + "=" + v + " is not a count: give a whole number >= 0.");
        }
    }
}
