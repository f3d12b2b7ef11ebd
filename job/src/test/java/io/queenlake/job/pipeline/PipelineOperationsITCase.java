package io.queenlake.job.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.broker.client.KvExpiry;
import io.queenlake.broker.client.KvOp;
import io.queenlake.broker.client.PushItem;
import io.queenlake.broker.client.QueueOptions;
import io.queenlake.broker.client.RawJson;
import io.queenlake.broker.kv.CommitPointers;
import io.queenlake.broker.kv.ObservedPointer;
import io.queenlake.broker.kv.SinkKeys;
import io.queenlake.format.key.Prefix;
import io.queenlake.format.key.SidecarKeys;
import io.queenlake.format.manifest.Committed;
import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.manifest.ManifestJson;
import io.queenlake.format.model.LogRecord;
import io.queenlake.format.model.LostRange;
import io.queenlake.connector.testutils.FlinkLakeFiles;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The pipeline under the things operators meet: retention overrunning a stopped job, a second
 * writer moving the pointer, a queue that goes quiet, and a backfill of a long log. Metrics are
 * read through Flink's {@link InMemoryReporter} on this class's MiniCluster, as a reporter would.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class PipelineOperationsITCase {

    static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setConfiguration(REPORTER.addToConfiguration(new Configuration()))
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    @TempDir
    static Path dir;

    static final List<String> PARTITIONS = List.of("p 0", "p/1", "\ud83d\ude00 2");

    private static PipelineRig rig;

    @BeforeAll
    static void startBroker() throws Exception {
        rig = new PipelineRig(dir);
    }

    @AfterAll
    static void stopBroker() {
        rig.close();
    }

    /** What the bucket holds of where each partition continues when the job without state restarts. */
    enum ResumeFrom {
        /** A checkpoint object on every window: the one at the pointer is exact. */
        A_CHECKPOINT_AT_THE_POINTER(1, false),
        /** The checkpoint object at the pointer is gone: the newest is a window behind, the manifest since says the rest. */
        A_CHECKPOINT_BEHIND_THE_POINTER(1, true),
        /** None written before the stop: the manifests' positions alone. */
        NO_CHECKPOINT(1000, false);

        final int checkpointEvery;
        final boolean dropNewestCheckpoint;

        ResumeFrom(int checkpointEvery, boolean dropNewestCheckpoint) {
            this.checkpointEvery = checkpointEvery;
            this.dropNewestCheckpoint = dropNewestCheckpoint;
        }
    }

    /**
     * The restart has no Flink state: where each partition continues comes from the bucket alone
     * (the newest checkpoint object at or below the pointer, then the manifests since), and every
     * range retention cut under the stopped job is named exactly, whatever checkpoint object exists.
     */
    @ParameterizedTest
    @EnumSource(ResumeFrom.class)
    void aRetentionOverrunUnderAStoppedJobIsInTheManifestOfTheWindowThatFoundItAndTheJobGoesOn(ResumeFrom resume)
            throws Exception {
        String name = "retention-" + resume.ordinal();
        List<String> queues = List.of(name + "/a", name + " b");
        SeededProducer producer = new SeededProducer(rig.client, 31, queues, PARTITIONS);
        LakeJob job = LakeJob.of(name, rig.fileRoot(name), queues).checkpointEvery(resume.checkpointEvery);

        RunningJob first = rig.start(job);
        producer.pushRounds(12, 100);
        for (String queue : queues) {
            rig.awaitPointer(first, queue, resume.dropNewestCheckpoint ? 2 : 1);
        }
        first.cancel();
        producer.pushRounds(5, 100); // more pushed under the stopped job
        Map<String, Committed> atCancel = pointers(job.sink(), queues);
        if (resume.dropNewestCheckpoint) {
            for (String queue : queues) {
                String key = new SidecarKeys(Prefix.DEFAULT, PipelineRig.TENANT, queue).checkpoint(atCancel.get(queue).k());
                org.apache.flink.core.fs.Path path = new org.apache.flink.core.fs.Path(job.root() + "/" + key);
                // A job cancelled between the pointer and the checkpoint object left none to delete.
                path.getFileSystem().delete(path, false);
                String behind = new SidecarKeys(Prefix.DEFAULT, PipelineRig.TENANT, queue).checkpoint(atCancel.get(queue).k() - 1);
                assertThat(new FlinkLakeFiles(job.root()).read(behind)).as("checkpoint object %s, now the newest", behind)
                        .isNotNull();
            }
        }
        Map<String, List<LogRecord>> beforeRetention = rig.readLogs(producer);
        for (String queue : queues) {
            rig.client.configure(queue, QueueOptions.retention(60));
        }
        rig.advanceClock(120_000);
        rig.broker.runRetentionNow();
        assertThat(rig.readLogs(producer).values()).as("the log after retention").allSatisfy(l -> assertThat(l).isEmpty());

        RunningJob second = rig.start(job);
        producer.pushRounds(8, 100);
        Map<String, List<LogRecord>> later = rig.readLogs(producer);
        rig.awaitCovered(second, later);
        Map<String, Long> lostCounted = settledLostCounters(second, queues);
        second.cancel();

        long lostInAll = 0;
        for (String queue : queues) {
            long tEnd = atCancel.get(queue).tEnd();
            List<LogRecord> committedBefore = beforeRetention.get(queue).stream().filter(r -> r.tsMicros() < tEnd).toList();
            List<LostRange> expectedLost = uncommittedRanges(beforeRetention.get(queue), tEnd);
            assertThat(later.get(queue).stream().map(LogRecord::partition).collect(Collectors.toSet()))
                    .as("every partition of %s has a record after the gap to carry its lost range", queue)
                    .containsExactlyInAnyOrderElementsOf(PARTITIONS);
            List<LogRecord> expected = new ArrayList<>(committedBefore);
            expected.addAll(later.get(queue));
            rig.assertExactlyOnce(job, Map.of(queue, expected));

            Map<Long, List<LostRange>> lostByWindow = lostByWindow(job, queue);
            assertThat(lostByWindow.values().stream().flatMap(List::stream).toList())
                    .as("lost ranges of %s", queue).containsExactlyInAnyOrderElementsOf(expectedLost);
            assertThat(lostByWindow.keySet()).allSatisfy(k -> assertThat(k).isGreaterThan(atCancel.get(queue).k()));
            for (Map.Entry<Long, List<LostRange>> w : lostByWindow.entrySet()) {
                Manifest m = manifest(job, queue, w.getKey());
                for (LostRange range : w.getValue()) {
                    // The window that found the gap holds the partition's first record after it.
                    long firstAfter = later.get(queue).stream().filter(r -> r.partition().equals(range.partition()))
                            .mapToLong(LogRecord::tsMicros).min().orElseThrow();
                    assertThat(firstAfter).isBetween(m.tStart(), m.tEnd() - 1);
                }
            }
            lostInAll += expectedLost.stream().mapToLong(LostRange::count).sum();
            System.out.printf("retention overrun on '%s': pointer k=%d at the stop, lost %s in windows %s%n", queue,
                    atCancel.get(queue).k(), expectedLost, lostByWindow.keySet());
        }
        assertThat(lostInAll).isPositive();
        // Two recordsLost counts: the source readers' totals (ranges seen) and the lake sink's per queue (ranges committed).
        long inSource = lostCounted.entrySet().stream().filter(e -> !e.getKey().contains("Commits"))
                .mapToLong(Map.Entry::getValue).sum();
        long inSink = lostCounted.entrySet().stream().filter(e -> e.getKey().contains("Commits"))
                .mapToLong(Map.Entry::getValue).sum();
        assertThat(inSink).as("the lake sink's recordsLost in %s", lostCounted).isEqualTo(lostInAll);
        assertThat(inSource).as("the source's recordsLost in %s", lostCounted).isEqualTo(lostInAll);
    }

    @Test
    void aPartitionQuietThroughAStatelessRunStillHasItsLossNamedAtTheNextStart() throws Exception {
        String queue = "quiet-through";
        List<String> queues = List.of(queue);
        SeededProducer producer = new SeededProducer(rig.client, 37, queues, PARTITIONS);
        LakeJob job = LakeJob.of(queue, rig.fileRoot(queue), queues).checkpointEvery(1);

        RunningJob first = rig.start(job);
        producer.pushRounds(6, 100);
        rig.awaitCovered(first, rig.readLogs(producer));
        first.cancel();
        // A second run without state: only one partition gets records; the others stay quiet all along.
        long kBefore = pointers(job.sink(), queues).get(queue).k();
        RunningJob second = rig.start(job);
        for (int i = 0; i < 5; i++) {
            rig.client.push(List.of(new PushItem(queue, PARTITIONS.get(0), Optional.empty(), RawJson.of("{\"i\":" + i + "}"))));
            Thread.sleep(100);
        }
        rig.awaitPointer(second, queue, kBefore + 1);
        rig.awaitCovered(second, rig.readLogs(producer));
        second.cancel();
        Committed atStop = pointers(job.sink(), queues).get(queue);
        producer.pushRounds(5, 100); // under the stopped job, then all of it expires
        List<LogRecord> beforeRetention = rig.readLogs(producer).get(queue);
        rig.client.configure(queue, QueueOptions.retention(60));
        rig.advanceClock(120_000);
        rig.broker.runRetentionNow();

        RunningJob third = rig.start(job);
        producer.pushRounds(8, 100);
        rig.awaitCovered(third, rig.readLogs(producer));
        third.cancel();

        List<LostRange> expected = uncommittedRanges(beforeRetention, atStop.tEnd());
        assertThat(expected).extracting(LostRange::partition).as("the quiet partitions lost records too")
                .contains(PARTITIONS.get(1), PARTITIONS.get(2));
        assertThat(lostByWindow(job, queue).values().stream().flatMap(List::stream).toList())
                .as("every range retention took under the stopped job, the quiet partitions' included")
                .containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void aSecondWriterMovingThePointerStopsTheJobWithTheFencingMessageAndThePointerNeverGoesBack() throws Exception {
        List<String> queues = List.of("fenced/orders");
        SeededProducer producer = new SeededProducer(rig.client, 41, queues, PARTITIONS);
        LakeJob job = LakeJob.of("fenced", rig.fileRoot("fenced"), queues);
        CommitPointers store = rig.pointers(job.sink());

        RunningJob running = rig.start(job);
        producer.pushRounds(10, 100);
        Committed ours = rig.awaitPointer(running, queues.get(0), 1);
        Committed foreign = new Committed(ours.k() + 100, ours.tEnd() + 3_600_000_000L,
                "elsewhere/_queen/windows/" + (ours.k() + 100) + ".json", 1, 1, 1L);
        rig.client.kv(List.of(KvOp.upsert(SinkKeys.NAMESPACE, store.committedKey(queues.get(0)),
                RawJson.ofUtf8(foreign.toJson()), KvExpiry.forever())));
        ObservedPointer written = store.read(queues.get(0));

        // Producers go on: the next window the job closes meets the foreign pointer.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!running.status().isGloballyTerminalState()) {
            assertThat(System.nanoTime()).as("the job stopping after the foreign write").isLessThan(deadline);
            producer.pushRound();
            assertThat(store.read(queues.get(0))).as("the pointer while the job runs").isEqualTo(written);
            Thread.sleep(100);
        }
        Throwable failure = running.failure(Duration.ofSeconds(10));

        assertThat(failure).isNotNull()
                .hasStackTraceContaining("queue 'fenced/orders' is fenced")
                .hasStackTraceContaining("at k=" + foreign.k())
                .hasStackTraceContaining(job.instance());
        assertThat(store.read(queues.get(0))).isEqualTo(written);
        System.out.printf("second writer: our pointer k=%d, foreign k=%d; the job stopped with: %s%n", ours.k(),
                foreign.k(), rootMessage(failure));
    }

    @Test
    void theLastWindowBeforeAQuietSpellIsCommittedWithinAboutAWindowAndABeat() throws Exception {
        List<String> queues = List.of("idle/orders");
        SeededProducer producer = new SeededProducer(rig.client, 51, queues, PARTITIONS);
        LakeJob job = LakeJob.of("idle", rig.fileRoot("idle"), queues);
        RunningJob running = rig.start(job);
        producer.pushRounds(5, 100);
        rig.awaitPointer(running, queues.get(0), 1);

        CommitPointers store = rig.pointers(job.sink());
        List<Long> latencies = new ArrayList<>();
        for (int spell = 1; spell <= 3; spell++) {
            producer.pushRounds(3, 0); // the last records before a quiet spell
            long pushedAt = rig.brokerMicros();
            long lastStamp = PipelineRig.lastStamp(rig.readLogs(producer).get(queues.get(0)));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            Committed committed = store.read(queues.get(0)).pointer().orElseThrow();
            while (committed.tEnd() <= lastStamp) {
                assertThat(System.nanoTime()).as("the quiet window committed within 30 s").isLessThan(deadline);
                Thread.sleep(5);
                committed = store.read(queues.get(0)).pointer().orElseThrow();
            }
            long seenAt = rig.brokerMicros();
            long afterPush = (seenAt - pushedAt) / 1000;
            latencies.add(afterPush);
            System.out.printf("idle latency, quiet spell %d: the last window (k=%d, ending %d ms after the last push)"
                            + " was committed %d ms after the push, %d ms after its end%n", spell, committed.k(),
                    (committed.tEnd() - pushedAt) / 1000, afterPush, (seenAt - committed.tEnd()) / 1000);
        }
        running.cancel();

        System.out.printf("idle latency settings: window=%d ms, guard=%d ms, checkpoint every %d ms, discovery every"
                        + " %d ms, lease TTL %d ms (a KV beat every %d ms ticks the idle broker's safeTime); expected"
                        + " about window + guard + one checkpoint interval (+ up to one beat); measured %s ms%n",
                PipelineRig.WINDOW_MS, PipelineRig.GUARD_MS, PipelineRig.CHECKPOINT_MS, PipelineRig.DISCOVERY_MS,
                PipelineRig.LEASE_TTL_MS, PipelineRig.LEASE_TTL_MS / 3, latencies);
        assertThat(latencies).allSatisfy(ms -> assertThat(ms).isLessThan(30_000L));
    }

    @Test
    void aBackfillOfTenWindowsKeepsAboutOneWindowPerQueueInState() throws Exception {
        int parallelism = 2;
        // About 1 MiB per partition and window, twice what one fetch answer brings (the reader asks a split
        // for about half a window of its broker time), so what bounds the buffer is the pausing one window
        // ahead, not the size of the log.
        List<String> queues = List.of("backfill-" + parallelism + "/a");
        SeededProducer producer = new SeededProducer(rig.client, 61, queues, List.of("p 0", "p/1"), 25, 16_000);
        producer.pushRoundsOnClock(rig, 240, 100); // twenty-four windows of broker time, pushed at once
        Map<String, List<LogRecord>> log = rig.readLogs(producer);
        LakeJob job = LakeJob.of("backfill-" + parallelism, rig.fileRoot("backfill-" + parallelism), queues)
                .parallelism(parallelism);

        RunningJob running = rig.start(job);
        GaugeSampler sampler = new GaugeSampler(running, queues);
        sampler.start();
        rig.awaitCovered(running, log);
        sampler.stop();
        running.cancel();

        rig.assertExactlyOnce(job, log);
        for (String queue : queues) {
            Map<Long, Long> byWindow = new TreeMap<>();
            for (LogRecord r : log.get(queue)) {
                byWindow.merge(r.tsMicros() / (PipelineRig.WINDOW_MS * 1000), (long) r.payload().length, Long::sum);
            }
            long total = byWindow.values().stream().mapToLong(Long::longValue).sum();
            long largestWindow = byWindow.values().stream().mapToLong(Long::longValue).max().orElseThrow();
            long peak = sampler.peak(queue);
            System.out.printf("backfill of '%s' at parallelism %d: %d windows, %d payload bytes in all, largest window"
                            + " %d bytes; bufferedBytes peaked at %d bytes (%.2f windows) over %d samples%n",
                    queue, parallelism, byWindow.size(), total, largestWindow, peak, peak / (double) largestWindow,
                    sampler.samples());
            assertThat(byWindow).hasSizeGreaterThanOrEqualTo(20);
            assertThat(peak).as("bufferedBytes of %s was seen", queue).isPositive();
            // What may be open at once: the window being filled, the pause slack of one window ahead of
            // the watermark, one fetch answer past it (about half a window), and the drift Flink's
            // alignment allows between the two readers (one window): three and a half, with room for the
            // watermark trailing the records and a loaded machine. Runs saw 2.1 to 2.6. Never the log.
            assertThat(peak).as("bufferedBytes of %s, a few windows at most, never the log", queue)
                    .isLessThanOrEqualTo(6 * largestWindow)
                    .isLessThan(total / 3);
        }
    }

    /** The windows of a queue's lake whose manifests list lost ranges, with those ranges. */
    private static Map<Long, List<LostRange>> lostByWindow(LakeJob job, String queue) throws Exception {
        Map<Long, List<LostRange>> out = new TreeMap<>();
        long k = rig.pointers(job.sink()).read(queue).k();
        for (long i = 1; i <= k; i++) {
            Manifest m = manifest(job, queue, i);
            if (!m.lost().isEmpty()) {
                out.put(i, m.lost());
            }
        }
        return out;
    }

    private static Manifest manifest(LakeJob job, String queue, long k) throws Exception {
        SidecarKeys sidecars = new SidecarKeys(Prefix.DEFAULT, PipelineRig.TENANT, queue);
        return ManifestJson.read(new FlinkLakeFiles(job.root()).read(sidecars.manifest(k)));
    }

    /** Per partition, the offsets at or after {@code tEnd}: what a retention that deleted the whole log took uncommitted. */
    private static List<LostRange> uncommittedRanges(List<LogRecord> log, long tEnd) {
        Map<String, long[]> bounds = new LinkedHashMap<>();
        for (LogRecord r : log) {
            if (r.tsMicros() >= tEnd) {
                bounds.merge(r.partition(), new long[] {r.offset(), r.offset()},
                        (a, b) -> new long[] {Math.min(a[0], b[0]), Math.max(a[1], b[1])});
            }
        }
        List<LostRange> ranges = new ArrayList<>();
        bounds.forEach((p, b) -> ranges.add(new LostRange(p, b[0], b[1])));
        return ranges;
    }

    private static Map<String, Committed> pointers(String sink, List<String> queues) {
        Map<String, Committed> out = new LinkedHashMap<>();
        for (String queue : queues) {
            out.put(queue, rig.pointers(sink).read(queue).pointer().orElseThrow());
        }
        return out;
    }

    /**
     * The recordsLost counters once the lake sink's have caught up with the source's: the committer counts a
     * window's lost records just after its pointer moves, so a pointer can be seen a moment before its count.
     */
    private static Map<String, Long> settledLostCounters(RunningJob job, List<String> queues) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            Map<String, Long> counted = counters(job, "recordsLost", queues);
            long inSource = counted.entrySet().stream().filter(e -> !e.getKey().contains("Commits"))
                    .mapToLong(Map.Entry::getValue).sum();
            long inSink = counted.entrySet().stream().filter(e -> e.getKey().contains("Commits"))
                    .mapToLong(Map.Entry::getValue).sum();
            if (inSink == inSource || System.nanoTime() > deadline) {
                return counted;
            }
            Thread.sleep(50);
        }
    }

    /**
     * Each counter named {@code metric} of {@code queues} in the job, by its metric identifier: the
     * sink's per queue, and the source reader's totals (the job reads only these queues).
     */
    private static Map<String, Long> counters(RunningJob job, String metric, List<String> queues) {
        Map<String, Long> out = new TreeMap<>();
        REPORTER.findMetrics(job.client().getJobID(), "\\." + metric + "$").forEach((id, m) -> {
            if (queues.stream().anyMatch(q -> id.endsWith(".queue." + q + "." + metric))
                    || id.endsWith(".QueenSourceReader." + metric)) {
                out.put(id, ((org.apache.flink.metrics.Counter) m).getCount());
            }
        });
        return out;
    }

    private static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage();
    }

    /** Samples the window operator's {@code bufferedBytes} gauge per queue every few milliseconds, keeping the peak. */
    private static final class GaugeSampler {
        private final RunningJob job;
        private final List<String> queues;
        private final Map<String, Long> peaks = new java.util.concurrent.ConcurrentHashMap<>();
        private final Thread thread;
        private volatile boolean running = true;
        private volatile long samples;

        GaugeSampler(RunningJob job, List<String> queues) {
            this.job = job;
            this.queues = queues;
            this.thread = new Thread(this::run, "buffered-bytes-sampler");
            thread.setDaemon(true);
        }

        void start() {
            thread.start();
        }

        void stop() throws InterruptedException {
            running = false;
            thread.join(5_000);
        }

        long peak(String queue) {
            return peaks.getOrDefault(queue, 0L);
        }

        long samples() {
            return samples;
        }

        private void run() {
            while (running) {
                Map<String, org.apache.flink.metrics.Metric> gauges =
                        REPORTER.findMetrics(job.client().getJobID(), "\\.bufferedBytes$");
                for (String queue : queues) {
                    long sum = 0;
                    for (Map.Entry<String, org.apache.flink.metrics.Metric> g : gauges.entrySet()) {
                        if (g.getKey().endsWith(".queue." + queue + ".bufferedBytes")) {
                            Object value = ((org.apache.flink.metrics.Gauge<?>) g.getValue()).getValue();
                            sum += ((Number) value).longValue();
                        }
                    }
                    peaks.merge(queue, sum, Math::max);
                }
                samples++;
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }
}
