package io.queenlake.job.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.broker.client.PushItem;
import io.queenlake.broker.client.RawJson;
import io.queenlake.broker.kv.CommitPointers;
import io.queenlake.connector.testutils.BrokerLog;
import io.queenlake.format.manifest.Committed;
import io.queenlake.format.model.LogRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.WebOptions;
import org.apache.flink.runtime.checkpoint.AbstractCheckpointStats;
import org.apache.flink.runtime.checkpoint.CompletedCheckpointStats;
import org.apache.flink.runtime.executiongraph.AccessExecutionGraph;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * One queue never waits for another (docs/ARCHITECTURE.md "Time"): each queue's windows close on
 * its own frontier, a queue found while the job runs starts its own windows, and what a checkpoint
 * holds is where to read again, not the open windows' records.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class QueueIsolationITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setConfiguration(new Configuration().set(WebOptions.CHECKPOINTS_HISTORY_SIZE, 10_000))
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    @TempDir
    static Path dir;

    static final List<String> PARTITIONS = List.of("p0", "p1", "p2", "p3");
    static final int BACKLOG_WINDOWS = 250;

    private static PipelineRig rig;

    @BeforeAll
    static void startBroker() throws Exception {
        rig = new PipelineRig(dir);
    }

    @AfterAll
    static void stopBroker() throws Exception {
        rig.close();
    }

    @Test
    void aLiveQueueKeepsCommittingWithinItsBoundWhileAnotherBackfillsTwentyWindowsInTheSameTask(
            @InjectMiniCluster MiniCluster cluster) throws Exception {
        long windowMs = 500;
        SeededProducer backlog = new SeededProducer(rig.client, 17, List.of("backlog"), PARTITIONS, 800, 300);
        // 250 windows: long enough a backfill that several live windows close during it.
        backlog.pushRoundsOnClock(rig, BACKLOG_WINDOWS, windowMs);
        long backlogEnd = PipelineRig.lastStamp(BrokerLog.read(rig.client, "backlog", PARTITIONS));
        LakeJob spec = LakeJob.of("isolated", rig.fileRoot("isolated"), List.of("backlog", "live"))
                .parallelism(1).windowMs(windowMs);
        AtomicBoolean pushing = new AtomicBoolean(true);
        Thread live = new Thread(() -> {
            int i = 0;
            while (pushing.get()) {
                rig.client.push(List.of(new PushItem("live", "p0", Optional.empty(), RawJson.of("{\"i\":" + i++ + "}"))));
                sleep(20);
            }
        }, "live-producer");
        live.start();
        RunningJob job = rig.start(spec);
        CommitPointers pointers = rig.pointers(spec.sink());
        List<Long> lateness = new ArrayList<>();
        long lastK = 0;
        long deadline = System.nanoTime() + PipelineRig.COVER_TIMEOUT.toNanos();
        // The live windows that ended before the job's first checkpoint waited for the job to start
        // (the producer began first); every later one only for its own frontier and the checkpoints.
        while (completedCheckpoints(cluster, job) == 0) {
            job.assertRunning();
            assertThat(System.nanoTime()).as("a first checkpoint within the cover timeout").isLessThan(deadline);
            Thread.sleep(5);
        }
        long running = rig.brokerMicros();
        long started = System.nanoTime();
        long backfillMs = -1;
        while (backfillMs < 0) {
            job.assertRunning();
            assertThat(System.nanoTime()).as("the backfill within the cover timeout").isLessThan(deadline);
            Optional<Committed> now = pointers.read("live").pointer();
            if (now.isPresent() && now.get().k() > lastK) {
                if (now.get().tEnd() > running) {
                    lateness.add((rig.brokerMicros() - now.get().tEnd()) / 1000);
                }
                lastK = now.get().k();
            }
            Optional<Committed> b = pointers.read("backlog").pointer();
            if (b.isPresent() && b.get().tEnd() > backlogEnd) {
                backfillMs = (System.nanoTime() - started) / 1_000_000;
            }
            Thread.sleep(5);
        }
        pushing.set(false);
        live.join();
        long interval = longestCheckpointInterval(cluster, job);
        job.cancel();
        // The backlog's commits run in the same committer call as the live queue's: they must not
        // stretch the checkpoints (each window's commit is a few short round trips to the broker).
        long bound = windowMs + PipelineRig.GUARD_MS + 2 * PipelineRig.CHECKPOINT_MS;
        long worst = lateness.stream().mapToLong(Long::longValue).max().orElse(-1);
        System.out.printf("isolation: a backlog of %d records over %d windows of %d ms was mirrored %d ms after the job"
                + " checkpointed first; meanwhile the live queue committed %d more windows, each this many ms after its tEnd: %s"
                + " (worst %d; window + guard + 2 checkpoint intervals of %d ms = %d; the longest interval achieved"
                + " was %d ms)%n", backlog.queued(), BACKLOG_WINDOWS, windowMs, backfillMs, lateness.size(), lateness, worst,
                PipelineRig.CHECKPOINT_MS, bound, interval);
        assertThat(lateness).as("live windows committed during the backfill").hasSizeGreaterThanOrEqualTo(3);
        assertThat(worst).as("the live queue's commit lateness during the backfill, ms: %s", lateness)
                .isLessThanOrEqualTo(bound);
        rig.assertExactlyOnce(spec, Map.of("backlog", BrokerLog.read(rig.client, "backlog", PARTITIONS)));
    }

    @Test
    void aQueueCreatedWhileTheJobRunsUnderStarIsMirroredWithoutARestart(@InjectMiniCluster MiniCluster cluster)
            throws Exception {
        // A broker of its own: under * the job mirrors every queue of the tenant.
        try (PipelineRig own = new PipelineRig(dir.resolve("star"))) {
            SeededProducer first = new SeededProducer(own.client, 3, List.of("star-a"), PARTITIONS);
            first.pushRounds(5, 0);
            LakeJob spec = LakeJob.of("star", own.fileRoot("star"), List.of("*")).parallelism(1);
            RunningJob job = own.start(spec);
            own.awaitCovered(job, Map.of("star-a", BrokerLog.read(own.client, "star-a", PARTITIONS)));
            // Pushed while the job runs: by the time the tenant's queues are listed again, its records are
            // older than frontiers the job has emitted for star-a.
            SeededProducer second = new SeededProducer(own.client, 4, List.of("star-b"), PARTITIONS);
            second.pushRounds(5, 0);
            first.pushRounds(5, 100);
            Map<String, List<LogRecord>> logs = Map.of(
                    "star-a", BrokerLog.read(own.client, "star-a", PARTITIONS),
                    "star-b", BrokerLog.read(own.client, "star-b", PARTITIONS));
            own.awaitCovered(job, logs);
            AccessExecutionGraph graph = cluster.getExecutionGraph(job.client().getJobID()).get(10, TimeUnit.SECONDS);
            job.cancel();
            assertThat(graph.getStatusTimestamp(JobStatus.RESTARTING)).as("the job never restarted").isZero();
            own.assertExactlyOnce(spec, logs);
        }
    }

    @Test
    void aCheckpointDuringABackfillHoldsUnderOneKibibytePerPartitionWhateverTheWindow(
            @InjectMiniCluster MiniCluster cluster) throws Exception {
        List<String> partitions = IntStream.range(0, 16).mapToObj(i -> "wide-" + i).toList();
        SeededProducer backlog = new SeededProducer(rig.client, 23, List.of("big-windows"), partitions, 250, 400);
        backlog.pushRoundsOnClock(rig, 20, 5_000);
        // Minute windows: a backfill of 100 s of broker time keeps most of its records in open windows.
        // Past the last window's end before the job starts (the leases live on the broker's clock): every window can close.
        rig.advanceClock(120_000);
        Map<String, List<LogRecord>> logs = Map.of("big-windows", BrokerLog.read(rig.client, "big-windows", partitions));
        LakeJob spec = LakeJob.of("small-checkpoints", rig.fileRoot("small-checkpoints"), List.of("big-windows"))
                .parallelism(1).windowMs(60_000);
        RunningJob job = rig.start(spec);
        rig.awaitCovered(job, logs);
        AccessExecutionGraph graph = cluster.getExecutionGraph(job.client().getJobID()).get(10, TimeUnit.SECONDS);
        job.cancel();
        long completed = graph.getCheckpointStatsSnapshot().getCounts().getNumberOfCompletedCheckpoints();
        long peak = graph.getCheckpointStatsSnapshot().getSummaryStats().getStateSizeStats().getMaximum();
        long payload = logs.get("big-windows").stream().mapToLong(r -> r.payload() == null ? 0 : r.payload().length).sum();
        System.out.printf("checkpoints: %d completed while %d records (%d payload bytes) in 60 s windows were mirrored;"
                + " the largest held %d bytes for %d partitions%n", completed, logs.get("big-windows").size(), payload,
                peak, partitions.size());
        assertThat(completed).isPositive();
        assertThat(peak).as("peak checkpoint bytes").isLessThan(1024L * partitions.size());
        rig.assertExactlyOnce(spec, logs);
    }

    private static long completedCheckpoints(MiniCluster cluster, RunningJob job) throws Exception {
        AccessExecutionGraph graph = cluster.getExecutionGraph(job.client().getJobID()).get(10, TimeUnit.SECONDS);
        return graph.getCheckpointStatsSnapshot().getCounts().getNumberOfCompletedCheckpoints();
    }

    /** The longest time between two completed checkpoints of the job so far, at least the configured interval. */
    private static long longestCheckpointInterval(MiniCluster cluster, RunningJob job) throws Exception {
        AccessExecutionGraph graph = cluster.getExecutionGraph(job.client().getJobID()).get(10, TimeUnit.SECONDS);
        List<Long> completions = new ArrayList<>();
        for (AbstractCheckpointStats c : graph.getCheckpointStatsSnapshot().getHistory().getCheckpoints()) {
            if (c instanceof CompletedCheckpointStats done) {
                completions.add(done.getLatestAckTimestamp());
            }
        }
        completions.sort(null);
        long longest = PipelineRig.CHECKPOINT_MS;
        for (int i = 1; i < completions.size(); i++) {
            longest = Math.max(longest, completions.get(i) - completions.get(i - 1));
        }
        return longest;
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
