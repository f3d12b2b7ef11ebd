package io.queenlake.job.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.broker.kv.Intents;
import io.queenlake.broker.kv.ObservedIntent;
import io.queenlake.format.jsonl.Compression;
import io.queenlake.format.key.Prefix;
import io.queenlake.format.manifest.Committed;
import io.queenlake.format.manifest.Intent;
import io.queenlake.format.model.Align;
import io.queenlake.format.model.Layout;
import io.queenlake.format.model.LogRecord;
import io.queenlake.format.object.Format;
import io.queenlake.format.window.WriterSettings;
import io.queenlake.connector.sink.CrashPoint;
import io.queenlake.connector.testutils.FlinkLakeFiles;
import io.queenlake.connector.verify.LakeChecker;
import io.queenlake.connector.verify.LakeReport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
 * Issue 18, item 2: a crash at each step of the committer's per-window sequence (intent, objects,
 * manifest, pointer), with no Flink restart, then a new deployment without state and with other
 * settings (windows of 2 s instead of 1 s, gzip instead of zstd). The crashed run leaves at most one
 * window per queue visible without its manifest, and its intent names it; the second run finishes
 * that intent with the recorded bounds and format first (the same keys), so the lake ends with no
 * object outside a manifest, nothing pending, and every record exactly once.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class IntentRedoITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    @TempDir
    static Path dir;

    static final List<String> QUEUES = List.of("redo/orders", "redo r\u00e9funds");
    static final List<String> PARTITIONS = List.of("r 0", "r/1", "Default");
    static final long CRASH_FROM_K = 3;
    static final WriterSettings OTHER = new WriterSettings(new Format.Jsonl(Compression.GZIP), Layout.MERGED, Align.HOUR,
            LakeJob.NO_CUT);

    private static PipelineRig rig;
    private static Map<String, List<LogRecord>> log;

    @BeforeAll
    static void pushTheLog() throws Exception {
        rig = new PipelineRig(dir);
        SeededProducer producer = new SeededProducer(rig.client, 18, QUEUES, PARTITIONS);
        producer.pushRoundsOnClock(rig, 40, 150); // 6 s of broker time: six or seven 1 s windows per queue
        log = rig.readLogs(producer);
    }

    @AfterAll
    static void stopBroker() {
        rig.close();
    }

    @ParameterizedTest
    @EnumSource(value = CrashPoint.class,
            names = {"AFTER_INTENT", "BETWEEN_OBJECTS_AND_MANIFEST", "BETWEEN_MANIFEST_AND_POINTER", "AFTER_POINTER"})
    void aCrashThenARestartWithOtherSettingsAndNoStateLeavesEveryRecordOnceAndNoOrphan(CrashPoint point)
            throws Exception {
        String name = "redo-" + point.name().toLowerCase().replace('_', '-');
        LakeJob first = LakeJob.of(name, rig.fileRoot(name), QUEUES).crashOnceAt(point, CRASH_FROM_K).restarts(0);
        RunningJob crashed = rig.start(first);
        assertThat(crashed.failure(Duration.ofSeconds(120))).as("the job dies at %s", point).isNotNull();
        assertThat(crashed.crashed()).isTrue();

        Intents intents = new Intents(rig.client, name);
        LakeChecker checker = new LakeChecker(new FlinkLakeFiles(first.root()), Prefix.DEFAULT);
        Intent open = null;
        String openQueue = null;
        boolean crashedAfterItsPointer = false;
        for (String queue : QUEUES) {
            Committed pointer = rig.pointers(name).read(queue).pointer().orElse(null);
            ObservedIntent intent = intents.read(queue);
            LakeReport report = checker.check(PipelineRig.TENANT, queue, pointer);
            // At most one window above the pointer is visible, and its intent names it.
            assertThat(report.orphans()).as("orphans of '%s' after the crash", queue).isEmpty();
            long k = pointer == null ? 0 : pointer.k();
            if (!report.pending().isEmpty()) {
                assertThat(intent.openAfter(Optional.ofNullable(pointer))).as("the intent of '%s' names its pending window", queue).isPresent();
                assertThat(report.pending()).allSatisfy(key -> assertThat(key).contains(String.format("/w-%010d-", k + 1)));
            }
            if (intent.openAfter(Optional.ofNullable(pointer)).isPresent()) {
                open = intent.openAfter(Optional.ofNullable(pointer)).get();
                openQueue = queue;
            }
            crashedAfterItsPointer |= k >= CRASH_FROM_K && intent.intent().filter(i -> i.k() == k).isPresent();
        }
        if (point == CrashPoint.AFTER_POINTER) {
            // The crashing queue's pointer moved past its intent; another queue, committed by another
            // subtask at its own pace, may be between its intent and its pointer when the job dies: its
            // intent is open, names its pending window (checked above) and is redone like any other.
            assertThat(crashedAfterItsPointer).as("a queue whose pointer reached its intent's window k >= %d", CRASH_FROM_K)
                    .isTrue();
        } else {
            assertThat(open).as("the crash left an open intent").isNotNull();
            assertThat(open.compression()).isEqualTo("zstd");
        }

        LakeJob second = first.crashOnceAt(null, 0).restarts(0).writer(OTHER).windowMs(2_000);
        RunningJob running = rig.start(second);
        rig.awaitCovered(running, log);
        running.cancel();

        rig.assertExactlyOnce(second, log);
        for (String queue : QUEUES) {
            Committed pointer = rig.pointers(name).read(queue).pointer().orElseThrow();
            LakeReport report = checker.check(PipelineRig.TENANT, queue, pointer);
            assertThat(report.problems()).as("%s", report).isEmpty();
            assertThat(report.orphans()).isEmpty();
            assertThat(report.pending()).isEmpty();
        }
        if (open != null) {
            // The redone window kept the intent's format; the windows after it are gzip.
            List<String> keys = new FlinkLakeFiles(first.root()).list(checker.dataPrefix(PipelineRig.TENANT, openQueue));
            String redone = String.format("/w-%010d-", open.k());
            assertThat(keys.stream().filter(key -> key.contains(redone))).singleElement()
                    .satisfies(key -> assertThat(key).endsWith(".jsonl.zst"));
            assertThat(keys.stream().filter(key -> key.endsWith(".jsonl.gz"))).isNotEmpty();
        }
        System.out.printf("crash at %s, then 2 s gzip windows without state: every record once, no orphan%s%n", point,
                open == null ? "" : ", intent k=" + open.k() + " finished as " + open.format() + "+" + open.compression());
    }
}
