package io.queenlake.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.broker.client.HttpQueenClient;
import io.queenlake.broker.client.PushItem;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.kv.CommitPointers;
import io.queenlake.devstack.broker.DevBroker;
import io.queenlake.devstack.broker.DevBrokerOptions;
import io.queenlake.devstack.s3.EmbeddedS3;
import io.queenlake.devstack.s3.EmbeddedS3Options;
import io.queenlake.format.manifest.ManifestJson;
import io.queenlake.job.config.LakeSettings;
import io.queenlake.job.config.SettingsLoader;
import io.queenlake.connector.sink.S3CallBounds;
import io.queenlake.connector.sink.S3Outages;
import io.queenlake.connector.verify.FlinkLakeFiles;
import io.queenlake.connector.verify.LakeChecker;
import io.queenlake.connector.verify.LakeReport;
import io.queenlake.source.testlog.CapturedLog;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./queen-lake run} against a bucket whose server is stopped for 40 s (as issue 25 tried it),
 * with the S3A settings the launcher ships ({@link S3CallBounds}): the outage shows as one WARN
 * within 15 s of the stop, one line when the bucket answers again, and the lake holds every record
 * once.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class LocalRunS3OutageITCase {

    private static final String QUEUE = "orders";
    private static final Duration OUTAGE = Duration.ofSeconds(40);
    private static DevBroker broker;
    private static QueenClient client;
    private static EmbeddedS3 s3;

    @TempDir
    static Path dir;

    @BeforeAll
    static void start() throws Exception {
        broker = DevBroker.start(DevBrokerOptions.builder().build());
        client = HttpQueenClient.builder().baseUrl(broker.url().toString()).build();
        s3 = EmbeddedS3.start(EmbeddedS3Options.builder().dir(dir.resolve("s3")).accessKey("k").secretKey("s")
                .bucket("lake").build());
    }

    @AfterAll
    static void stop() {
        broker.close();
        s3.close();
    }

    private static LakeSettings settings() {
        return SettingsLoader.load(Map.of("QUEEN_S3_ACCESS_KEY", "k", "QUEEN_S3_SECRET_KEY", "s"), new String[] {
            "--queues", QUEUE, "--endpoint", s3.endpoint().toString(), "--bucket", "lake", "--path-style", "true",
            "--region", EmbeddedS3.REGION, "--queen-url", broker.url().toString(), "--sink", "outage",
            "--instance", "outage-itcase", "--start", "earliest", "--max-window-ms", "1000", "--safe-guard-ms", "0",
            "--discovery-interval-ms", "100", "--lease-ttl-ms", "1000"}, new Configuration());
    }

    @Test
    void aStoppedBucketIsOneWarnWithin15sThenOneRecoveryLineAndTheLakeIsExact() throws Exception {
        LakeSettings settings = settings();
        Configuration conf = LauncherFileSystems.initialize(new Configuration(), settings);
        assertThat(conf.toMap()).containsAllEntriesOf(S3CallBounds.SETTINGS);

        AtomicInteger pushed = new AtomicInteger();
        AtomicBoolean producing = new AtomicBoolean(true);
        Thread producer = new Thread(() -> {
            while (producing.get()) {
                push(pushed, 5);
                sleep(200);
            }
        }, "outage-producer");

        List<String> lines;
        long warnAfterMs;
        try (CapturedLog log = CapturedLog.of(S3Outages.class);
                LocalRun run = LocalRun.start(settings, conf, 0, null, Duration.ofSeconds(1))) {
            producer.start();
            await("records committed before the outage", Duration.ofSeconds(60), () -> records(settings) >= 20);

            s3.stop();
            long stoppedAt = System.nanoTime();
            await("the WARN", Duration.ofSeconds(30), () -> !log.lines().isEmpty());
            warnAfterMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stoppedAt);
            System.out.println("S3 stopped; the WARN came after " + warnAfterMs + " ms: " + log.lines().get(0));
            long left = OUTAGE.toMillis() - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stoppedAt);
            Thread.sleep(Math.max(0, left));
            assertThat(log.lines()).as("one WARN during the outage").hasSize(1);
            s3.restart();

            await("the recovery line", Duration.ofSeconds(60), () -> log.lines().size() >= 2);
            producing.set(false);
            producer.join();
            int total = pushed.get();
            await("all " + total + " records committed", Duration.ofSeconds(60), () -> records(settings) == total);
            lines = log.lines();
        } finally {
            producing.set(false);
        }
        lines.forEach(line -> System.out.println("S3Outages said: " + line));

        assertThat(warnAfterMs).isLessThan(15_000);
        assertThat(lines.get(0)).startsWith("WARN S3 unavailable for queue 'orders': endpoint " + s3.endpoint()
                + " bucket lake: ").endsWith("; retrying, one line when it recovers");
        assertThat(lines.get(1)).startsWith("INFO S3 available again for queue 'orders': endpoint " + s3.endpoint()
                + " bucket lake, after ");
        // Pairs only: a failure met after the recovery (an upload the stop lost) is an outage of its own.
        assertThat(lines).hasSize(lines.size() / 2 * 2);
        LakeReport report = lake(settings);
        assertThat(report.problems()).as("%s", report).isEmpty();
        assertThat(report.recordsRead()).isEqualTo(pushed.get());
    }

    private static void push(AtomicInteger pushed, int count) {
        List<PushItem> items = new ArrayList<>();
        int from = pushed.get();
        for (int i = from; i < from + count; i++) {
            items.add(PushItem.of(QUEUE, "p-" + (i % 3), "t-" + i, "{\"n\":" + i + "}"));
        }
        client.push(items);
        pushed.addAndGet(count);
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static LakeReport lake(LakeSettings settings) throws Exception {
        return new LakeChecker(new FlinkLakeFiles(settings.lakeRoot()), settings.prefix()).check(
                ManifestJson.DEFAULT_TENANT, QUEUE,
                new CommitPointers(client, "outage").read(QUEUE).pointer().orElse(null));
    }

    private static long records(LakeSettings settings) {
        try {
            return lake(settings).recordsRead();
        } catch (Exception e) {
            return -1; // the bucket is down: not there yet
        }
    }

    private static void await(String what, Duration within, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waiting for %s", what).isLessThan(deadline);
            Thread.sleep(200);
        }
    }
}
