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
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
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
 */
final class LagRun {

    private static final long PUSH_EVERY_MS = 50;
    private static final long POLL_MS = 20;

    /** One pushed batch: when it was sent, when its answer came back (broker clock), how many records. */
    private record Batch(long sentNanos, long answeredMicros, int records) {}

    /** The latency distribution, in milliseconds, weighted by records. */
    record Lag(int records, double seconds, long windowMs, long checkpointMs, long safeGuardMs, double p50, double p90,
            double p99, double max) {}

    private final Stack stack;
    private final BenchOptions options;

    LagRun(Stack stack, BenchOptions options) {
        this.stack = stack;
        this.options = options;
    }

    Lag run() throws Exception {
        String bucket = "lag-" + options.invocation();
        List<String> queues = List.of(bucket + "-orders", bucket + "-refunds");
        Files.createDirectories(stack.bucketDir(bucket));
        LakeSettings settings = stack.settings(queues, bucket, options.windowMs(), new Format.Jsonl(Compression.ZSTD));
        StreamExecutionEnvironment env = BenchCluster.environment("lag " + bucket, options.parallelism(), options.checkpointInterval(),
                options.dir().resolve("checkpoints").resolve(bucket));
        LakeJob.build(env, settings);
        ConcurrentLinkedQueue<Batch> pushed = new ConcurrentLinkedQueue<>();
        AtomicReference<Throwable> producerFailure = new AtomicReference<>();
        int perBatch = (int) Math.max(2, options.lagRate() * PUSH_EVERY_MS / 1000);
        int batches = (int) (options.lagSeconds() * 1000L / PUSH_EVERY_MS);
        List<Double> latencies = new ArrayList<>();
        try (BenchCluster cluster = BenchCluster.submit(env)) {
            while (cluster.completedCheckpoints() < 1) { // the job is up and reading
                cluster.assertRunning();
                Thread.sleep(POLL_MS);
            }
            AtomicBoolean stop = new AtomicBoolean();
            Thread producer = new Thread(() -> produce(queues, perBatch, batches, pushed, stop, producerFailure),
                    "e2e-lag-producer");
            producer.start();
            try {
                CommitPointers pointers = new CommitPointers(stack.client(), settings.sink());
                int committedBatches = 0;
                long deadline = System.nanoTime() + (options.lagSeconds() + 120) * 1_000_000_000L;
                while (committedBatches < batches) {
                    if (producerFailure.get() != null) {
                        throw new IllegalStateException("the lag run's producer failed", producerFailure.get());
                    }
                    cluster.assertRunning();
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("the lag run committed " + committedBatches + " of " + batches
                                + " batches within " + (options.lagSeconds() + 120) + " s");
                    }
                    long covered = Long.MAX_VALUE;
                    for (String queue : queues) {
                        Committed c = pointers.read(queue).pointer().orElse(null);
                        covered = Math.min(covered, c == null ? 0 : c.tEnd());
                    }
                    long now = System.nanoTime();
                    for (Batch b; (b = pushed.peek()) != null && b.answeredMicros() < covered; pushed.poll()) {
                        double ms = (now - b.sentNanos()) / 1e6;
                        for (int i = 0; i < b.records(); i++) {
                            latencies.add(ms);
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
        double[] sorted = latencies.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return new Lag(sorted.length, options.lagSeconds(), options.windowMs(), options.checkpointInterval().toMillis(),
                settings.safeGuardMs(), percentile(sorted, 0.50), percentile(sorted, 0.90), percentile(sorted, 0.99),
                sorted[sorted.length - 1]);
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
        return String.format(java.util.Locale.ROOT,
                "lag run: %,d records over %.0f s; window %d ms, checkpoint every %d ms, safe guard %d ms:"
                        + " push-to-commit p50 %.0f ms, p90 %.0f ms, p99 %.0f ms, max %.0f ms",
                lag.records(), lag.seconds(), lag.windowMs(), lag.checkpointMs(), lag.safeGuardMs(), lag.p50(), lag.p90(),
                lag.p99(), lag.max());
    }
}
