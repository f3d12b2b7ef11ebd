package io.queenlake.bench.e2e;

import io.queenlake.bench.OrderPayloads;
import io.queenlake.broker.client.PushItem;
import io.queenlake.broker.kv.CommitPointers;
import io.queenlake.format.jsonl.Compression;
import io.queenlake.format.manifest.Committed;
import io.queenlake.format.object.Format;
import io.queenlake.job.LakeJob;
import io.queenlake.job.config.LakeSettings;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The lag run: queen-lake JSONL+zstd running from an empty pair of queues while a producer pushes
 * at a steady rate; each pushed batch is committed once both queues' pointers have {@code tEnd}
 * above the time its push was answered (the broker stamped it no later), and its push-to-commit
 * latency is from the moment it was sent to the poll that saw that pointer. The producer goes on
 * pushing, unmeasured, until every measured batch is committed: the run measures a steady stream,
 * and the last measured batch never waits for a window after its last record that no record would
 * ever open (its answer may come back a millisecond into it), nor for the end of a quiet spell.
 *
 * <p>With a backfill ({@code lag=backfill}), the same job also mirrors a third queue from
 * {@code start=earliest}, holding a backlog whose stamps span at least {@code backfill-windows}
 * windows ({@link #ensureBackfill}); the run then goes on until that queue is committed to its last
 * stamp too, and reports the live queues' latency of the batches pushed while the backfill was not
 * yet committed apart from those pushed after, and when the backfill was.
 */
final class LagRun {

    private static final long PUSH_EVERY_MS = 50;
    private static final long POLL_MS = 20;

    /** One pushed batch: when it was sent, when its answer came back (broker clock), how many records. */
    private record Batch(long sentNanos, long answeredMicros, int records) {}

    /** A latency distribution, in milliseconds, weighted by records. */
    record Latency(int records, double p50, double p90, double p95, double p99, double max) {

        static Latency of(List<Double> values) {
            double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            return new Latency(sorted.length, percentile(sorted, 0.50), percentile(sorted, 0.90), percentile(sorted, 0.95),
                    percentile(sorted, 0.99), sorted.length == 0 ? Double.NaN : sorted[sorted.length - 1]);
        }
    }

    /**
     * The backfill beside the live queues: its queue, records and the broker time its stamps span;
     * when its pointer first covered its last stamp, in seconds from the job's submission and from the
     * live producer's start; the live queues' latency of batches sent before that and after it.
     */
    record Backfill(String queue, long records, long spanMs, long committedK, double committedAfterSubmitSeconds,
            double committedAfterProducerSeconds, Latency during, Latency after) {}

    /** The lag run's figures; {@code backfill} null without one. */
    record Lag(String config, int records, double seconds, long windowMs, long checkpointMs, long safeGuardMs,
            Latency all, Backfill backfill) {}

    private final Stack stack;
    private final BenchOptions options;
    private final RunConfig config;
    private final Corpus backfill;
    private final Corpus.Census backfillCensus;

    /** {@code backfill} and its census null for the live queues alone. */
    LagRun(Stack stack, BenchOptions options, RunConfig config, Corpus backfill, Corpus.Census backfillCensus) {
        this.stack = stack;
        this.options = options;
        this.config = config;
        this.backfill = backfill;
        this.backfillCensus = backfillCensus;
    }

    /** The backfill's corpus: one queue, named by its size (its stamps' span is checked when pushed). */
    static Corpus backfillCorpus(BenchOptions options) {
        String name = "bf" + options.backfillRecords() + "-p" + Math.max(1, options.partitions() / 2);
        return new Corpus(name, List.of(name + "-orders"), Math.max(1, options.partitions() / 2),
                options.backfillRecords(), 43);
    }

    /**
     * Pushes the backfill's backlog unless the broker holds it, no faster than over
     * {@code backfill-windows + 1} windows, and checks that its stamps span {@code backfill-windows} windows.
     */
    static Corpus.Census ensureBackfill(Stack stack, Corpus corpus, BenchOptions options) throws Exception {
        Duration atLeast = Duration.ofMillis((options.backfillWindows() + 1L) * options.windowMs());
        Corpus.Census census = corpus.ensurePushed(stack.client(), options.pushThreads(), atLeast);
        String queue = corpus.queues().get(0);
        long windows = census.spanMs(queue) / Math.max(1, options.windowMs());
        System.out.printf(Locale.ROOT, "backfill %s: %,d records, stamps spanning %.1f s (%d windows of %d ms)%n", queue,
                census.records(), census.spanMs(queue) / 1e3, windows, options.windowMs());
        if (windows < options.backfillWindows()) {
            throw new IllegalStateException("the backfill queue " + queue + " spans " + windows + " windows of "
                    + options.windowMs() + " ms, fewer than backfill-windows=" + options.backfillWindows()
                    + ": it was pushed for a smaller window or count; delete the broker's data dir (bench/README.md)"
                    + " or give another backfill-records");
        }
        return census;
    }

    Lag run() throws Exception {
        String bucket = "lag-" + options.invocation() + (backfill != null ? "-bf" : "") + config.bucketSuffix();
        List<String> live = List.of(bucket + "-orders", bucket + "-refunds");
        List<String> queues = new ArrayList<>(live);
        String backfillQueue = backfill == null ? null : backfill.queues().get(0);
        if (backfillQueue != null) {
            queues.add(backfillQueue);
        }
        Files.createDirectories(stack.bucketDir(bucket));
        LakeSettings settings = stack.settings(queues, bucket, options.windowMs(), new Format.Jsonl(Compression.ZSTD));
        StreamExecutionEnvironment env = BenchCluster.environment("lag " + bucket, options.parallelism(), options.checkpointInterval(),
                options.dir().resolve("checkpoints").resolve(bucket), config);
        LakeJob.build(env, settings);
        ConcurrentLinkedQueue<Batch> pushed = new ConcurrentLinkedQueue<>();
        AtomicReference<Throwable> producerFailure = new AtomicReference<>();
        int perBatch = (int) Math.max(2, options.lagRate() * PUSH_EVERY_MS / 1000);
        int batches = (int) (options.lagSeconds() * 1000L / PUSH_EVERY_MS);
        List<Double> latencies = new ArrayList<>();
        List<Double> during = new ArrayList<>();
        List<Double> after = new ArrayList<>();
        long backfillCommitted = 0; // System.nanoTime() of the first poll that saw the backfill committed, 0 before
        long backfillK = -1;
        long submitted = System.nanoTime();
        long producerStart;
        try (BenchCluster cluster = BenchCluster.submit(env)) {
            while (cluster.completedCheckpoints() < 1) { // the job is up and reading
                cluster.assertRunning();
                Thread.sleep(POLL_MS);
            }
            AtomicBoolean stop = new AtomicBoolean();
            Thread producer = new Thread(() -> produce(live, perBatch, batches, pushed, stop, producerFailure),
                    "e2e-lag-producer");
            producerStart = System.nanoTime();
            producer.start();
            try {
                CommitPointers pointers = new CommitPointers(stack.client(), settings.sink());
                int committedBatches = 0;
                long limitS = options.lagSeconds() + 120 + (backfill == null ? 0 : options.runTimeout().toSeconds());
                long deadline = System.nanoTime() + limitS * 1_000_000_000L;
                while (committedBatches < batches || (backfillQueue != null && backfillCommitted == 0)) {
                    if (producerFailure.get() != null) {
                        throw new IllegalStateException("the lag run's producer failed", producerFailure.get());
                    }
                    cluster.assertRunning();
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("the lag run committed " + committedBatches + " of " + batches
                                + " batches" + (backfillQueue == null ? "" : backfillCommitted == 0 ? " and not the backfill"
                                : " and the backfill") + " within " + limitS + " s");
                    }
                    long covered = Long.MAX_VALUE;
                    for (String queue : live) {
                        Committed c = pointers.read(queue).pointer().orElse(null);
                        covered = Math.min(covered, c == null ? 0 : c.tEnd());
                    }
                    long now = System.nanoTime();
                    if (backfillQueue != null && backfillCommitted == 0) {
                        Committed c = pointers.read(backfillQueue).pointer().orElse(null);
                        if (c != null && c.tEnd() > backfillCensus.lastStamps().get(backfillQueue)) {
                            backfillCommitted = now;
                            backfillK = c.k();
                        }
                    }
                    for (Batch b; (b = pushed.peek()) != null && b.answeredMicros() < covered; pushed.poll()) {
                        double ms = (now - b.sentNanos()) / 1e6;
                        // A batch sent before the backfill was seen committed was pushed while it ran.
                        List<Double> part = backfillCommitted == 0 || b.sentNanos() < backfillCommitted ? during : after;
                        for (int i = 0; i < b.records(); i++) {
                            latencies.add(ms);
                            part.add(ms);
                        }
                        committedBatches++;
                    }
                    Thread.sleep(POLL_MS);
                }
            } finally {
                stop.set(true); // every measured batch is committed, or the run failed: no more pushes either way
                producer.join();
            }
        }
        Backfill bf = null;
        if (backfillQueue != null) {
            bf = new Backfill(backfillQueue, backfillCensus.records(), backfillCensus.spanMs(backfillQueue), backfillK,
                    (backfillCommitted - submitted) / 1e9, (backfillCommitted - producerStart) / 1e9,
                    Latency.of(during), Latency.of(after));
        }
        return new Lag(config.label(), latencies.size(), options.lagSeconds(), options.windowMs(),
                options.checkpointInterval().toMillis(), settings.safeGuardMs(), Latency.of(latencies), bf);
    }

    /**
     * Pushes batches of {@code perBatch} records, one every {@value #PUSH_EVERY_MS} ms on a fixed
     * schedule until {@code stop} is set, the first {@code batches} of them measured.
     */
    private void produce(List<String> queues, int perBatch, int batches, ConcurrentLinkedQueue<Batch> pushed,
            AtomicBoolean stop, AtomicReference<Throwable> failure) {
        try {
            OrderPayloads payloads = new OrderPayloads(7);
            long start = System.nanoTime();
            int n = 0;
            for (int b = 0; !stop.get(); b++) {
                long due = start + b * PUSH_EVERY_MS * 1_000_000L;
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    Thread.sleep(wait / 1_000_000L, (int) (wait % 1_000_000L));
                }
                List<PushItem> items = new ArrayList<>(perBatch);
                for (int i = 0; i < perBatch; i++, n++) {
                    items.add(PushItem.of(queues.get(n % queues.size()), "customer-" + String.format("%05d", n % 200),
                            "lag-" + n, payloads.next()));
                }
                long sent = System.nanoTime();
                stack.client().push(items);
                if (b < batches) {
                    pushed.add(new Batch(sent, wallMicros(), perBatch));
                }
            }
        } catch (Throwable t) {
            failure.set(t);
        }
    }

    private static long wallMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }

    /** The nearest-rank percentile of sorted values. */
    static double percentile(double[] sorted, double q) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    static String describe(Lag lag) {
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT,
                "lag run [%s]%s: %,d records over %.0f s; window %d ms, checkpoint every %d ms, safe guard %d ms:"
                        + " push-to-commit %s",
                lag.config(), lag.backfill() == null ? "" : " beside a backfill", lag.records(), lag.seconds(), lag.windowMs(),
                lag.checkpointMs(), lag.safeGuardMs(), latency(lag.all(), true)));
        Backfill bf = lag.backfill();
        if (bf != null) {
            out.append(String.format(Locale.ROOT, "%n  backfill %s: %,d records spanning %.1f s of broker time (%d windows),"
                            + " committed (pointer k=%d) %.1f s after submission, %.1f s after the live producer started",
                    bf.queue(), bf.records(), bf.spanMs() / 1e3, bf.spanMs() / Math.max(1, lag.windowMs()), bf.committedK(),
                    bf.committedAfterSubmitSeconds(), bf.committedAfterProducerSeconds()));
            out.append(String.format(Locale.ROOT, "%n  live queues while the backfill ran: %,d records, push-to-commit %s",
                    bf.during().records(), bf.during().records() == 0
                            ? "none (the backfill was committed before the producer's first batch: raise backfill-records)"
                            : latency(bf.during(), false)));
            out.append(String.format(Locale.ROOT, "%n  live queues after it: %,d records, push-to-commit %s",
                    bf.after().records(), bf.after().records() == 0 ? "none (the backfill outlasted the lag run)"
                            : latency(bf.after(), false)));
        }
        return out.toString();
    }

    private static String latency(Latency l, boolean all) {
        return all
                ? String.format(Locale.ROOT, "p50 %.0f ms, p90 %.0f ms, p95 %.0f ms, p99 %.0f ms, max %.0f ms", l.p50(), l.p90(),
                        l.p95(), l.p99(), l.max())
                : String.format(Locale.ROOT, "p50 %.0f ms, p95 %.0f ms, max %.0f ms", l.p50(), l.p95(), l.max());
    }
}
