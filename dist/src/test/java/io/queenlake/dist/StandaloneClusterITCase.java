package io.queenlake.dist;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.broker.client.HttpQueenClient;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.kv.CommitPointers;
import io.queenlake.connector.testutils.BrokerLog;
import io.queenlake.connector.testutils.FlinkLakeFiles;
import io.queenlake.connector.testutils.FlinkS3ForTests;
import io.queenlake.connector.testutils.LakeChecker;
import io.queenlake.connector.testutils.LakeReport;
import io.queenlake.connector.window.WindowSettings;
import io.queenlake.devstack.broker.DevBroker;
import io.queenlake.devstack.broker.DevBrokerOptions;
import io.queenlake.devstack.s3.EmbeddedS3;
import io.queenlake.devstack.s3.EmbeddedS3Options;
import io.queenlake.devstack.s3.FlinkS3Settings;
import io.queenlake.format.key.Prefix;
import io.queenlake.format.manifest.Committed;
import io.queenlake.format.model.LogRecord;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code flink run} jar on a cluster as users run one: a standalone session cluster of separate
 * processes (a JobManager and two TaskManagers started from Flink's own entry points, on Flink's own
 * jars only, the S3 plugin in {@code plugins/s3-fs-hadoop}), an {@code s3://} lake on the embedded S3,
 * the jar submitted with {@code flink run -d -p 2}. One TaskManager is SIGKILLed while records flow
 * and started again; every record is in the lake exactly once, as the lake checker, {@code verify}
 * and the manifests show. Unlike {@link FlinkRunITCase} (a MiniCluster in this JVM, whose class path
 * has everything), the TaskManagers here see only Flink and the jar: a class the jar lacks fails the
 * job. Runs in Maven's {@code integration-test} phase, after {@code package}.
 */
// About 1.5 minutes on an idle two-core machine; three JVMs of a cluster and Maven's share a busy one.
@Timeout(value = 420, unit = TimeUnit.SECONDS)
class StandaloneClusterITCase {

    private static final Path JAR = FlinkRunJar.JAR;
    private static final List<String> QUEUES = List.of("orders", "payments", "refunds");
    private static final List<String> PARTITIONS = List.of("p0", "p1", "p2", "p3");
    private static final Duration PATIENCE = Duration.ofSeconds(120);
    /** Packages of the job's own libraries: the `flink run` jar brings them, the cluster must not. */
    private static final List<String> JOB_LIBRARIES = List.of("io/queenlake/", "org/apache/parquet/", "shaded/parquet/",
            "org/apache/hadoop/", "org/apache/iceberg/", "org/apache/avro/", "com/github/luben/", "com/fasterxml/jackson/",
            "software/amazon/", "com/amazonaws/", "org/gaul/");

    @TempDir
    static Path dir;

    private static EmbeddedS3 s3;
    private static DevBroker broker;
    private static QueenClient client;
    private static SessionCluster cluster;
    private static ClusterRest rest;
    private static final long STARTED = System.nanoTime();

    @RegisterExtension
    static final TestWatcher PRINT_LOGS_ON_FAILURE = new TestWatcher() {
        @Override
        public void testFailed(ExtensionContext context, Throwable cause) {
            if (cluster != null) {
                System.out.println(cluster.logTails());
            }
        }
    };

    @BeforeAll
    static void startTheLakeTheBrokerAndTheCluster() throws Exception {
        FlinkRunJar.assertBuilt();
        s3 = EmbeddedS3.start(EmbeddedS3Options.builder().dir(dir.resolve("s3")).accessKey("lake-key")
                .secretKey("lake-secret").bucket("lake").build());
        FlinkS3ForTests.initialize(s3);
        broker = DevBroker.start(DevBrokerOptions.builder().build());
        client = HttpQueenClient.builder().baseUrl(broker.url().toString()).build();
        cluster = SessionCluster.start(dir.resolve("cluster"), clusterSettings(), 2);
        rest = new ClusterRest(cluster.restUrl());
        step("session cluster up: a JobManager and 2 TaskManagers on " + SessionCluster.lib().size() + " Flink jars");
    }

    /** What the cluster's config.yaml holds beyond addresses, ports and memory (SessionCluster's). */
    private static Map<String, String> clusterSettings() {
        Map<String, String> settings = new LinkedHashMap<>(FlinkS3Settings.of(s3));
        // As flink-conf/config.yaml: the lake sink's writes keep S3A's directory markers, and the
        // multipart threshold the job sets on its own side (so the submission warns of no difference).
        settings.put("s3.directory.marker.retention", "keep");
        settings.put("s3.multipart.threshold", "67108864");
        // One slot per TaskManager and parallelism 2: with one TaskManager killed, the job cannot run
        // on the survivor alone, so it is restored onto the TaskManager started again.
        settings.put("taskmanager.numberOfTaskSlots", "1");
        settings.put("execution.checkpointing.interval", "500 ms");
        settings.put("execution.checkpointing.mode", "EXACTLY_ONCE");
        // Shared by the three processes, as a bucket would be.
        settings.put("execution.checkpointing.dir", dir.resolve("checkpoints").toUri().toString());
        settings.put("state.backend.type", "hashmap");
        settings.put("restart-strategy.type", "fixed-delay");
        settings.put("restart-strategy.fixed-delay.attempts", "10");
        settings.put("restart-strategy.fixed-delay.delay", "1 s");
        settings.put("jobmanager.execution.failover-strategy", "region");
        // A killed TaskManager is noticed in seconds rather than the default 50 s.
        settings.put("heartbeat.interval", "1000");
        settings.put("heartbeat.timeout", "10000");
        settings.put("metrics.fetcher.update-interval", "1000");
        return settings;
    }

    @AfterAll
    static void stopEverything() {
        if (cluster != null) {
            cluster.close();
        }
        if (broker != null) {
            broker.close();
        }
        if (s3 != null) {
            s3.close();
        }
    }

    @Test
    void theClusterRunsOnFlinksOwnJarsOnly() throws Exception {
        List<Path> lib = SessionCluster.lib();
        assertThat(lib.stream().map(p -> p.getFileName().toString()))
                .contains("flink-runtime-2.3.0.jar", "flink-streaming-java-2.3.0.jar", "flink-clients-2.3.0.jar",
                        "flink-connector-base-2.3.0.jar", "log4j-slf4j-impl-2.24.3.jar");
        Map<String, List<String>> strays = new LinkedHashMap<>();
        for (Path jar : lib) {
            try (JarFile file = new JarFile(jar.toFile())) {
                List<String> found = file.stream().map(e -> e.getName())
                        .filter(n -> JOB_LIBRARIES.stream().anyMatch(n::startsWith)).limit(3).toList();
                if (!found.isEmpty()) {
                    strays.put(jar.getFileName().toString(), found);
                }
            }
        }
        assertThat(strays).as("the job's own libraries on the cluster's class path").isEmpty();
        assertThat(rest.jobManagerClassPath()).as("the JobManager's class path, as it reports it")
                .containsExactlyInAnyOrderElementsOf(lib.stream().map(Path::toString).toList());
    }

    @Test
    void everyRecordIsInTheLakeOnceAfterATaskManagerIsKilledAndStartedAgain() throws Exception {
        SteadyProducer producer = new SteadyProducer(client, QUEUES, PARTITIONS, Duration.ofMillis(100));
        producer.pushRound(); // the queues exist before the job starts
        SessionCluster.Submission submission = cluster.flinkRun(JAR, 2, Map.of(), List.of(
                "--queues", String.join(",", QUEUES),
                "--bucket", "lake",
                "--endpoint", s3.endpoint().toString(),
                "--path-style", "true",
                "--region", EmbeddedS3.REGION,
                "--access-key", s3.accessKey(),
                "--secret-key", s3.secretKey(),
                "--queen-url", broker.url().toString(),
                "--start", "earliest",
                "--max-window-ms", "1000",
                "--safe-guard-ms", "0",
                "--discovery-interval-ms", "100",
                "--lease-ttl-ms", "3000",
                // Parquet rather than the default JSONL: the TaskManagers then also run the jar's Parquet
                // and Hadoop (its writer's Configuration), which only a real cluster can show missing.
                "--format", "parquet"));
        assertThat(submission.exitCode()).as(submission.output()).isZero();
        String jobId = jobIdOf(submission.output());
        step("flink run -d -p 2 submitted job " + jobId);
        // From a running job on, so that it does not start behind a backlog of windows to catch up.
        await(jobId, "the job running", () -> rest.fullyRunning(jobId));
        producer.start();
        step("job running on both TaskManagers; producer started");

        Map<String, Long> beforeKill = awaitPointersBeyond(jobId, "every queue's first window committed", Map.of());
        step("every queue committing, pointers at k=" + beforeKill + "; SIGKILL to TaskManager 0");
        int exit = cluster.killTaskManager(0);
        assertThat(exit).as("exit status of a SIGKILLed TaskManager").isEqualTo(128 + 9);
        Thread.sleep(2_000);
        cluster.startTaskManager(0);
        step("TaskManager 0 started again");
        await(jobId, "the job restarted and running again", () -> rest.restarts(jobId) >= 1 && rest.fullyRunning(jobId));
        step("job restored and running: " + rest.failures(jobId));
        awaitPointersBeyond(jobId, "every queue committing again after the restore", beforeKill);
        step("every queue committing again");

        Thread.sleep(3_000); // records keep flowing after the restore
        producer.stop();
        Map<String, List<LogRecord>> log = new LinkedHashMap<>();
        for (String queue : QUEUES) {
            log.put(queue, BrokerLog.read(client, queue, PARTITIONS));
            assertThat(log.get(queue).stream().map(LogRecord::transactionId))
                    .as("queue %s's log: every record pushed, once", queue)
                    .containsExactlyInAnyOrderElementsOf(producer.queued().get(queue));
        }
        Map<String, Committed> pointers = awaitCovered(jobId, log);
        step("producer stopped after " + producer.count() + " records; every pointer covers its log");

        assertThat(rest.status(jobId)).isEqualTo("RUNNING");
        long restarts = rest.restarts(jobId);
        assertThat(restarts).as("restarts of the job").isGreaterThanOrEqualTo(1);

        // Exactly once, as the manifests 1..k of each queue show it: every record of the log in one window, once.
        LakeChecker checker = new LakeChecker(new FlinkLakeFiles("s3://lake"), Prefix.DEFAULT);
        for (String queue : QUEUES) {
            LakeReport report = checker.check(WindowSettings.DEFAULT_TENANT, queue, pointers.get(queue).k(), log.get(queue));
            assertThat(report.problems()).as("%s", report).isEmpty();
            assertThat(report.recordsRead()).as("records of queue %s in the lake", queue).isEqualTo(log.get(queue).size());
        }
        // ... and as ./queen-lake verify says it.
        Verified verified = verify("--queue", String.join(",", QUEUES), "--bucket", "lake",
                "--endpoint", s3.endpoint().toString(), "--path-style", "true", "--region", EmbeddedS3.REGION,
                "--access-key", s3.accessKey(), "--secret-key", s3.secretKey(), "--queen-url", broker.url().toString());
        assertThat(verified.exit()).as(verified.out()).isZero();
        for (String queue : QUEUES) {
            assertThat(verified.out()).as(verified.out())
                    .contains("queue '" + queue + "': " + pointers.get(queue).k() + " windows, " + log.get(queue).size()
                            + " records, ")
                    .containsPattern("queue '" + queue + "': .* 0 lost ranges \\(0 records\\), 0 orphans, 0 problems");
        }
        assertThat(verified.out()).contains("the lake is consistent");

        System.out.printf("standalone cluster: %d records of %d queues in %d windows; TaskManager 0 SIGKILLed at k=%s"
                        + " and started again; %d restarts: %s%n", producer.count(), QUEUES.size(),
                pointers.values().stream().mapToLong(Committed::k).sum(), beforeKill, restarts, rest.failures(jobId));
        rest.cancel(jobId);
        await(jobId, "the job cancelled", () -> rest.status(jobId).equals("CANCELED"));
    }

    private static void step(String what) {
        System.out.printf("[standalone cluster +%.1f s] %s%n", (System.nanoTime() - STARTED) / 1e9, what);
    }

    private static String jobIdOf(String output) {
        Matcher m = Pattern.compile("Job has been submitted with JobID ([0-9a-f]{32})").matcher(output);
        assertThat(m.find()).as(output).isTrue();
        return m.group(1);
    }

    /** Waits until every queue's pointer has moved beyond its k in {@code beyond} (0 if absent); returns their k. */
    private static Map<String, Long> awaitPointersBeyond(String jobId, String what, Map<String, Long> beyond)
            throws Exception {
        CommitPointers store = new CommitPointers(client, "default");
        Map<String, Long> seen = new LinkedHashMap<>();
        await(jobId, what, () -> {
            boolean all = true;
            for (String queue : QUEUES) {
                long k = store.read(queue).pointer().map(Committed::k).orElse(0L);
                seen.put(queue, k);
                all &= k > beyond.getOrDefault(queue, 0L);
            }
            return all;
        }, () -> "pointers " + seen);
        return Map.copyOf(seen);
    }

    /** Waits until every queue's pointer covers its last record ({@code tEnd} above its stamp). */
    private static Map<String, Committed> awaitCovered(String jobId, Map<String, List<LogRecord>> log) throws Exception {
        CommitPointers store = new CommitPointers(client, "default");
        Map<String, Committed> seen = new LinkedHashMap<>();
        await(jobId, "every queue's pointer covering its log", () -> {
            boolean all = true;
            for (Map.Entry<String, List<LogRecord>> e : log.entrySet()) {
                Optional<Committed> c = store.read(e.getKey()).pointer();
                c.ifPresent(p -> seen.put(e.getKey(), p));
                long last = e.getValue().stream().mapToLong(LogRecord::tsMicros).max().orElseThrow();
                all &= c.isPresent() && c.get().tEnd() > last;
            }
            return all;
        }, () -> "pointers " + seen);
        return seen;
    }

    private static void await(String jobId, String what, Callable<Boolean> condition) throws Exception {
        await(jobId, what, condition, () -> "");
    }

    /**
     * Polls {@code condition}; fails at once when the job failed, or after {@link #PATIENCE}, with what
     * the cluster says of the job (its state, its failures, the latest one's stack trace).
     */
    private static void await(String jobId, String what, Callable<Boolean> condition, Callable<String> state)
            throws Exception {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!condition.call()) {
            String status = rest.status(jobId);
            boolean failed = status.equals("FAILED");
            if (failed || System.nanoTime() > deadline) {
                String seen = state.call();
                throw new AssertionError("waiting for " + what + ": " + (failed ? "" : "not within " + PATIENCE + "; ")
                        + "the job is " + status + (seen.isEmpty() ? "" : ", " + seen) + "; failures (latest first): "
                        + rest.failures(jobId) + "\nlatest failure:\n" + rest.rootCause(jobId));
            }
            Thread.sleep(200);
        }
    }

    private record Verified(int exit, String out) {}

    /**
     * {@code ./queen-lake verify ...} in this JVM, as the cli tests run it: {@code VerifyCommand}
     * with an environment and an output of its own (package-private to the launcher's package, so
     * reached by reflection from here). It reads every setting from {@code args}.
     */
    private static Verified verify(String... args) throws Exception {
        Constructor<?> command = Class.forName("io.queenlake.job.cli.VerifyCommand")
                .getDeclaredConstructor(Map.class, PrintStream.class);
        command.setAccessible(true);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Object verify = command.newInstance(Map.of(), new PrintStream(out, true, StandardCharsets.UTF_8));
        Method run = verify.getClass().getDeclaredMethod("run", String[].class);
        run.setAccessible(true);
        int exit = (int) run.invoke(verify, (Object) args);
        return new Verified(exit, out.toString(StandardCharsets.UTF_8));
    }
}
