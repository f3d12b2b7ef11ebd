package io.queenlake.job.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.connector.testutils.BrokerLog;
import io.queenlake.format.model.LogRecord;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.WebOptions;
import org.apache.flink.runtime.checkpoint.CheckpointStatsSnapshot;
import org.apache.flink.runtime.checkpoint.FailedCheckpointStats;
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
 * Windows far larger than a checkpoint or the memory budget: the open windows are never in Flink
 * state, so the JobManager's in-memory checkpoint storage (what {@code ./queen-lake run} uses
 * without {@code --state-dir}, capped at 5 MiB) commits a 50 MiB window with no failed checkpoint,
 * and {@code QUEEN_S3_MEMORY_MB} bounds what a backfill holds open.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class LargeWindowsITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setConfiguration(historyOfEveryCheckpoint())
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    private static Configuration historyOfEveryCheckpoint() {
        Configuration conf = new Configuration();
        conf.set(WebOptions.CHECKPOINTS_HISTORY_SIZE, 10_000);
        return conf;
    }

    @TempDir
    static Path dir;

    static final List<String> PARTITIONS = List.of("p0", "p1", "p2", "p3");

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
    void aFiftyMebibyteWindowCommitsThroughTheJobManagersCheckpointStorageWithNoFailedCheckpoint(
            @InjectMiniCluster MiniCluster cluster) throws Exception {
        SeededProducer producer = new SeededProducer(rig.client, 50, List.of("fat"), PARTITIONS, 60, 4_000);
        while (payloadBytes("fat") < 50L << 20) {
            producer.pushRounds(40, 0);
        }
        // Past the last window's end before the job starts (the leases live on the broker's clock): every window can close.
        rig.advanceClock(120_000);
        Map<String, List<LogRecord>> logs = Map.of("fat", BrokerLog.read(rig.client, "fat", PARTITIONS));
        LakeJob spec = LakeJob.of("fat", rig.fileRoot("fat"), List.of("fat")).parallelism(1).windowMs(60_000);
        RunningJob job = rig.start(spec);
        rig.awaitCovered(job, logs);
        AccessExecutionGraph graph = cluster.getExecutionGraph(job.client().getJobID()).get(10, TimeUnit.SECONDS);
        job.cancel();
        CheckpointStatsSnapshot stats = graph.getCheckpointStatsSnapshot();
        System.out.printf("a window of %d payload bytes committed: %d checkpoints completed, %d failed (triggers before the"
                + " task ran included), the largest %d bytes%n",
                payloadBytes("fat"), stats.getCounts().getNumberOfCompletedCheckpoints(),
                stats.getCounts().getNumberOfFailedCheckpoints(), stats.getSummaryStats().getStateSizeStats().getMaximum());
        List<String> failures = stats.getHistory().getCheckpoints().stream()
                .filter(c -> c instanceof FailedCheckpointStats)
                .map(c -> c.getCheckpointId() + ": " + ((FailedCheckpointStats) c).getFailureMessage()).toList();
        // A trigger before the task runs is counted as failed without ever starting; every started one completed.
        assertThat(failures).as("checkpoints that started and failed").isEmpty();
        assertThat(stats.getCounts().getNumberOfCompletedCheckpoints()).isPositive();
        assertThat(graph.getStatusTimestamp(JobStatus.RESTARTING)).as("the job never restarted").isZero();
        rig.assertExactlyOnce(spec, logs);
    }

    @Test
    void aBackfillFarLargerThanTheMemoryBudgetCommitsEveryRecordWithTheOpenWindowsBounded(
            @InjectMiniCluster MiniCluster cluster) throws Exception {
        SeededProducer producer = new SeededProducer(rig.client, 64, List.of("budget"), PARTITIONS, 60, 4_000);
        while (payloadBytes("budget") < 80L << 20) {
            producer.pushRoundsOnClock(rig, 40, 100);
        }
        // Past the last window's end before the job starts (the leases live on the broker's clock): every window can close.
        rig.advanceClock(120_000);
        Map<String, List<LogRecord>> logs = Map.of("budget", BrokerLog.read(rig.client, "budget", PARTITIONS));
        LakeJob spec = LakeJob.of("budget", rig.fileRoot("budget"), List.of("budget")).parallelism(1)
                .windowMs(60_000).memoryMb(8);
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong peakHeap = new AtomicLong();
        Thread sampler = new Thread(() -> {
            while (running.get()) {
                peakHeap.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "heap-sampler");
        System.gc();
        long before = memory.getHeapMemoryUsage().getUsed();
        sampler.start();
        RunningJob job = rig.start(spec);
        rig.awaitCovered(job, logs);
        running.set(false);
        sampler.join();
        job.cancel();
        long windows = rig.assertExactlyOnce(spec, logs);
        System.out.printf("a backfill of %d payload bytes in one-minute windows with QUEEN_S3_MEMORY_MB=8 committed %d windows;"
                + " heap %d MiB before, peak %d MiB while it ran%n", payloadBytes("budget"), windows, before >> 20,
                peakHeap.get() >> 20);
        assertThat(windows).as("the memory cut closed windows early").isGreaterThan(5);
    }

    private static long payloadBytes(String queue) {
        return BrokerLog.read(rig.client, queue, PARTITIONS).stream()
                .mapToLong(r -> r.payload() == null ? 0 : r.payload().length).sum();
    }
}
