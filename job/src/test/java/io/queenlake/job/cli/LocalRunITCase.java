package io.queenlake.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.broker.client.HttpQueenClient;
import io.queenlake.broker.client.PushItem;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.kv.CommitPointers;
import io.queenlake.devstack.broker.DevBroker;
import io.queenlake.devstack.broker.DevBrokerOptions;
import io.queenlake.format.manifest.ManifestJson;
import io.queenlake.job.config.LakeSettings;
import io.queenlake.job.config.SettingsLoader;
import io.queenlake.connector.verify.FlinkLakeFiles;
import io.queenlake.connector.verify.LakeChecker;
import io.queenlake.connector.verify.LakeReport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./queen-lake run} with a state folder: stopped and started again, the job resumes from
 * the newest checkpoint it retained there, and the lake holds every record once across both runs.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LocalRunITCase {

    private static final String QUEUE = "orders";
    private static DevBroker broker;
    private static QueenClient client;

    @TempDir
    static Path dir;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = DevBroker.start(DevBrokerOptions.builder().build());
        client = HttpQueenClient.builder().baseUrl(broker.url().toString()).build();
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    private static void push(int from, int count) {
        List<PushItem> items = new ArrayList<>();
        for (int i = from; i < from + count; i++) {
            items.add(PushItem.of(QUEUE, "p-" + (i % 3), "t-" + i, "{\"n\":" + i + "}"));
        }
        client.push(items);
    }

    private static LakeSettings settings() {
        return SettingsLoader.load(Map.of(), new String[] {
            "--queues", QUEUE, "--endpoint", dir.toUri().toString(), "--bucket", "lake",
            "--queen-url", broker.url().toString(), "--sink", "run", "--instance", "run-itcase",
            "--start", "earliest", "--max-window-ms", "1000", "--safe-guard-ms", "0",
            "--discovery-interval-ms", "100", "--lease-ttl-ms", "1000"}, new Configuration());
    }

    private static LocalRun start(LakeSettings settings, Path stateDir) throws Exception {
        Configuration conf = LauncherFileSystems.initialize(new Configuration(), settings);
        return LocalRun.start(settings, conf, 0, stateDir, Duration.ofMillis(300));
    }

    private static LakeReport lake(LakeSettings settings) throws Exception {
        return new LakeChecker(new FlinkLakeFiles(settings.lakeRoot()), settings.prefix()).check(
                ManifestJson.DEFAULT_TENANT, QUEUE, new CommitPointers(client, "run").read(QUEUE).pointer().orElse(null));
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waiting for %s", what).isLessThan(deadline);
            Thread.sleep(100);
        }
    }

    @Test
    void aRestartWithTheSameStateDirResumesFromTheNewestRetainedCheckpoint() throws Exception {
        LakeSettings settings = settings();
        Path stateDir = dir.resolve("state");
        push(0, 20);

        Optional<RetainedCheckpoints.Retained> retained;
        try (LocalRun first = start(settings, stateDir)) {
            assertThat(first.restoredFrom()).isEmpty();
            await("the first 20 records committed", () -> records(settings) == 20);
            await("a retained checkpoint", () -> RetainedCheckpoints.newest(stateDir.resolve("checkpoints")).isPresent());
        }
        retained = RetainedCheckpoints.newest(stateDir.resolve("checkpoints"));
        assertThat(retained).as("a checkpoint retained after the job was cancelled").isPresent();
        push(20, 20);

        try (LocalRun second = start(settings, stateDir)) {
            assertThat(second.restoredFrom()).isEqualTo(retained);
            await("all 40 records committed", () -> records(settings) == 40);
        }
        LakeReport report = lake(settings);
        assertThat(report.problems()).as("%s", report).isEmpty();
        assertThat(report.recordsRead()).isEqualTo(40);
    }

    @Test
    void withoutAStateDirTheRunCheckpointsIntoAScratchFolderOfItsOwnThatGoesWithIt() throws Exception {
        LakeSettings settings = settings();
        Path scratch;
        try (LocalRun run = start(settings, null)) {
            assertThat(run.restoredFrom()).isEmpty();
            // Not the JobManager's memory, which refuses a checkpoint over 5 MiB: thousands of queues outgrow it.
            scratch = run.scratchCheckpoints().orElseThrow();
            await("a completed checkpoint in " + scratch, () -> RetainedCheckpoints.newest(scratch).isPresent());
        }
        assertThat(scratch).as("the scratch folder, after the run").doesNotExist();
    }

    private static long records(LakeSettings settings) {
        try {
            return lake(settings).recordsRead();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
