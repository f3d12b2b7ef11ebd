package io.queenlake.job.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.format.key.Prefix;
import io.queenlake.format.manifest.Committed;
import io.queenlake.format.model.LogRecord;
import io.queenlake.connector.sink.CrashPoint;
import io.queenlake.connector.testutils.FlinkLakeFiles;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The crash matrix end to end, with the real source and windows and eight queues committing at
 * once: over one pushed log, a control
 * run without failure, then for each {@link CrashPoint} a run that crashes once at window 3 and
 * is brought back by Flink's restart strategy (from its last checkpoint). Each lake must be
 * byte-identical to the control's (data and checkpoint objects as they are, manifests without
 * their sink name and wall-clock {@code committedAt}), the pointers must say the same, and the
 * checker must pass over the whole log.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class PipelineCrashMatrixITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    @TempDir
    static Path dir;

    /** Eight queues, so a crash lands while other queues' windows are mid-commit in their lanes. */
    static final List<String> QUEUES = List.of("crash/orders", "crash r\u00e9funds", "crash-2", "crash-3", "crash-4",
            "crash-5", "crash-6", "crash-7");
    static final List<String> PARTITIONS = List.of("c 0", "c/1", "\ud83d\ude00", "Default");
    static final long CRASH_FROM_K = 3;

    private static PipelineRig rig;
    private static Map<String, List<LogRecord>> log;
    private static LakeJob control;
    private static Map<String, String> controlImage;
    private static Map<String, Committed> controlPointers;

    @BeforeAll
    static void pushTheLog() throws Exception {
        rig = new PipelineRig(dir);
        SeededProducer producer = new SeededProducer(rig.client, 21, QUEUES, PARTITIONS);
        producer.pushRoundsOnClock(rig, 40, 150); // 6 s of broker time: six or seven windows per queue
        log = rig.readLogs(producer);
        assertThat(log.values().stream().mapToLong(List::size).sum()).isEqualTo(producer.queued());
    }

    /**
     * The control run, once, from the first test: the MiniCluster takes jobs only inside a test
     * (the extension sets the execution environment before each test, not before {@code @BeforeAll}).
     */
    private static void runTheControlOnce() throws Exception {
        if (controlImage != null) {
            return;
        }
        control = LakeJob.of("crash-control", rig.fileRoot("control"), QUEUES);
        RunningJob running = rig.start(control);
        controlPointers = rig.awaitCovered(running, log);
        running.cancel();
        rig.assertExactlyOnce(control, log);
        controlImage = LakeImage.of(new FlinkLakeFiles(control.root()), Prefix.DEFAULT.value());
        assertThat(controlPointers.values()).allSatisfy(c -> assertThat(c.k()).isGreaterThan(CRASH_FROM_K));
    }

    @AfterAll
    static void stopBroker() {
        rig.close();
    }

    @ParameterizedTest
    // BETWEEN_TABLE_AND_POINTER is only reached with an Iceberg catalog: IcebergTableITCase crashes there.
    @EnumSource(value = CrashPoint.class, mode = EnumSource.Mode.EXCLUDE, names = "BETWEEN_TABLE_AND_POINTER")
    void aCrashAtEachCommitStepRecoversToTheControlLake(CrashPoint point) throws Exception {
        runTheControlOnce();
        String name = "crash-" + point.name().toLowerCase().replace('_', '-');
        LakeJob job = control.asSink(name, rig.fileRoot(name)).crashOnceAt(point, CRASH_FROM_K);

        RunningJob running = rig.start(job);
        Map<String, Committed> pointers = rig.awaitCovered(running, log);
        running.cancel();

        assertThat(running.crashed()).as("the crash at %s happened", point).isTrue();
        rig.assertExactlyOnce(job, log);
        Map<String, String> image = LakeImage.of(new FlinkLakeFiles(job.root()), Prefix.DEFAULT.value());
        assertThat(LakeImage.dataObjects(image)).isEqualTo(LakeImage.dataObjects(controlImage));
        assertThat(image).isEqualTo(controlImage);
        assertThat(withoutWallClock(pointers)).isEqualTo(withoutWallClock(controlPointers));
        System.out.printf("crash at %s: recovered, %d keys equal to the control, pointers at k=%s%n", point,
                image.size(), pointers.values().stream().map(c -> Long.toString(c.k())).toList());
    }

    private static Map<String, Committed> withoutWallClock(Map<String, Committed> pointers) {
        Map<String, Committed> out = new LinkedHashMap<>();
        pointers.forEach((q, c) -> out.put(q, new Committed(c.k(), c.tEnd(), c.manifest(), c.records(), c.bytes(), 0)));
        return out;
    }
}
