package io.queenlake.job.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.format.key.Prefix;
import io.queenlake.format.manifest.Committed;
import io.queenlake.format.model.LogRecord;
import io.queenlake.connector.testutils.FlinkLakeFiles;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The job stopped and started again, while producers push: without any Flink state it continues
 * from the KV pointer; from an older savepoint it recognises the windows committed since and leaves
 * them as they are; from a savepoint at another parallelism it writes the same bytes as a run that
 * was never interrupted. Every case ends with the lake checker over the whole log.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class RestartAndRescaleITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    @TempDir
    static Path dir;

    static final List<String> PARTITIONS = List.of("p 0", "p/1", "\ud834\udd1e-2", "\u00e9t\u00e9");
    static final long PAUSE_MS = 100;

    private static PipelineRig rig;

    @BeforeAll
    static void startBroker() throws Exception {
        rig = new PipelineRig(dir.resolve("lakes"));
    }

    @AfterAll
    static void stopBroker() {
        rig.close();
    }

    @Test
    void aJobCancelledAndStartedAgainWithoutFlinkStateContinuesFromThePointer() throws Exception {
        List<String> queues = List.of("restart/a", "restart b");
        SeededProducer producer = new SeededProducer(rig.client, 11, queues, PARTITIONS);
        LakeJob job = LakeJob.of("restart", rig.fileRoot("restart"), queues);

        RunningJob first = rig.start(job);
        producer.pushRounds(15, PAUSE_MS);
        for (String queue : queues) {
            rig.awaitPointer(first, queue, 1);
        }
        first.cancel();
        Map<String, Committed> atCancel = pointers(job, queues);
        Map<String, String> before = LakeImage.of(new FlinkLakeFiles(job.root()), Prefix.DEFAULT.value());
        producer.pushRounds(10, PAUSE_MS); // pushed while no job runs, into the window the cancel left open

        RunningJob second = rig.start(job);
        producer.pushRounds(10, PAUSE_MS);
        Map<String, List<LogRecord>> log = rig.readLogs(producer);
        rig.awaitCovered(second, log);
        second.cancel();

        assertThat(total(log)).isEqualTo(producer.queued());
        long windows = rig.assertExactlyOnce(job, log);
        assertThat(LakeImage.of(new FlinkLakeFiles(job.root()), Prefix.DEFAULT.value())).containsAllEntriesOf(before);
        for (String queue : queues) {
            assertThat(rig.pointers(job.sink()).read(queue).k()).isGreaterThan(atCancel.get(queue).k());
        }
        System.out.printf("restart without state: %d records, pointers at cancel %s, %d windows in all%n",
                total(log), ks(atCancel), windows);
    }

    @Test
    void anOlderSavepointRestoredAfterNewerWindowsWereCommittedLeavesThoseWindowsAsTheyWere() throws Exception {
        List<String> queues = List.of("old-savepoint/a", "old savepoint b");
        SeededProducer producer = new SeededProducer(rig.client, 12, queues, PARTITIONS);
        LakeJob job = LakeJob.of("old-savepoint", rig.fileRoot("old-savepoint"), queues);

        RunningJob first = rig.start(job);
        producer.pushRounds(10, PAUSE_MS);
        for (String queue : queues) {
            rig.awaitPointer(first, queue, 1);
        }
        String savepoint = first.savepoint(dir.resolve("savepoints"));
        Map<String, Committed> atSavepoint = pointers(job, queues);
        producer.pushRounds(25, PAUSE_MS);
        for (String queue : queues) {
            rig.awaitPointer(first, queue, atSavepoint.get(queue).k() + 2);
        }
        first.cancel();
        Map<String, Committed> atCancel = pointers(job, queues);
        Map<String, String> before = LakeImage.of(new FlinkLakeFiles(job.root()), Prefix.DEFAULT.value());
        for (String queue : queues) {
            assertThat(atCancel.get(queue).k()).as("windows of %s committed after the savepoint", queue)
                    .isGreaterThanOrEqualTo(atSavepoint.get(queue).k() + 2);
        }
        producer.pushRounds(5, PAUSE_MS);

        RunningJob second = rig.start(job.restoredFrom(savepoint));
        producer.pushRounds(5, PAUSE_MS);
        Map<String, List<LogRecord>> log = rig.readLogs(producer);
        rig.awaitCovered(second, log);
        second.cancel();

        assertThat(total(log)).isEqualTo(producer.queued());
        long windows = rig.assertExactlyOnce(job, log);
        // Manifests are compared without committedAt: a window found committed is never rewritten differently.
        assertThat(LakeImage.of(new FlinkLakeFiles(job.root()), Prefix.DEFAULT.value())).containsAllEntriesOf(before);
        System.out.printf("old savepoint: %d records, pointers at the savepoint %s, at cancel %s, %d windows in all%n",
                total(log), ks(atSavepoint), ks(atCancel), windows);
    }

    @ParameterizedTest(name = "parallelism {0} -> {1}")
    @CsvSource({"2, 1", "1, 2"})
    void aRestartAtAnotherParallelismWritesTheLakeOfAnUninterruptedRun(int before, int after) throws Exception {
        String name = "rescale-" + before + "-" + after;
        List<String> queues = List.of(name + "/a", name + " b");
        SeededProducer producer = new SeededProducer(rig.client, 13 + before, queues, PARTITIONS);
        LakeJob job = LakeJob.of(name, rig.fileRoot(name), queues).parallelism(before);

        RunningJob first = rig.start(job);
        producer.pushRounds(12, PAUSE_MS);
        for (String queue : queues) {
            rig.awaitPointer(first, queue, 1);
        }
        String savepoint = first.stopWithSavepoint(dir.resolve("savepoints"));
        Map<String, Committed> atStop = pointers(job, queues);
        producer.pushRounds(6, PAUSE_MS);
        RunningJob second = rig.start(job.parallelism(after).restoredFrom(savepoint));
        producer.pushRounds(8, PAUSE_MS);
        Map<String, List<LogRecord>> log = rig.readLogs(producer);
        rig.awaitCovered(second, log);
        second.cancel();

        LakeJob control = job.asSink(name + "-control", rig.fileRoot(name + "-control")).parallelism(2);
        RunningJob uninterrupted = rig.start(control);
        rig.awaitCovered(uninterrupted, log);
        uninterrupted.cancel();

        long windows = rig.assertExactlyOnce(job, log);
        rig.assertExactlyOnce(control, log);
        Map<String, String> rescaled = LakeImage.of(new FlinkLakeFiles(job.root()), Prefix.DEFAULT.value());
        Map<String, String> reference = LakeImage.of(new FlinkLakeFiles(control.root()), Prefix.DEFAULT.value());
        assertThat(LakeImage.dataObjects(rescaled)).isEqualTo(LakeImage.dataObjects(reference));
        assertThat(rescaled).isEqualTo(reference);
        System.out.printf("rescale %d -> %d: %d records, pointers at the stop %s, %d windows, %d keys equal to the control%n",
                before, after, total(log), ks(atStop), windows, rescaled.size());
    }

    private static Map<String, Committed> pointers(LakeJob job, List<String> queues) {
        Map<String, Committed> out = new java.util.LinkedHashMap<>();
        for (String queue : queues) {
            out.put(queue, rig.pointers(job.sink()).read(queue).pointer().orElseThrow());
        }
        return out;
    }

    private static String ks(Map<String, Committed> pointers) {
        StringBuilder s = new StringBuilder();
        pointers.forEach((q, c) -> s.append(s.length() == 0 ? "" : ", ").append(q).append(" k=").append(c.k()));
        return s.toString();
    }

    private static long total(Map<String, List<LogRecord>> log) {
        return log.values().stream().mapToLong(List::size).sum();
    }
}
