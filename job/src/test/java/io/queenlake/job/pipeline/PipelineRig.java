package io.queenlake.job.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.broker.client.HttpQueenClient;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.kv.CommitPointers;
import io.queenlake.connector.pipeline.LakePipeline;
import io.queenlake.connector.sink.LakeSink;
import io.queenlake.connector.sink.LakeSinkBuilder;
import io.queenlake.connector.testutils.BrokerLog;
import io.queenlake.connector.testutils.FlinkLakeFiles;
import io.queenlake.connector.testutils.LakeChecker;
import io.queenlake.connector.testutils.LakeReport;
import io.queenlake.connector.window.WindowSettings;
import io.queenlake.devstack.broker.DevBroker;
import io.queenlake.devstack.broker.DevBrokerOptions;
import io.queenlake.format.key.Prefix;
import io.queenlake.format.manifest.Committed;
import io.queenlake.format.model.LogRecord;
import io.queenlake.source.QueenSource;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * A small world for end-to-end tests of the pipeline: a dev broker whose clock a test may move
 * forward, a client to push with and to read pointers, lakes under a temporary folder, and jobs of
 * the real graph ({@link io.queenlake.connector.pipeline.LakePipeline}: QueenSource, broker-clock windows,
 * the lake sink) started with {@code executeAsync} on the test class's MiniCluster, with short
 * settings: windows of {@value #WINDOW_MS} ms (unless the job says otherwise), guard {@value #GUARD_MS} ms, discovery every
 * {@value #DISCOVERY_MS} ms, lease TTL {@value #LEASE_TTL_MS} ms (unless the job says otherwise), a checkpoint every
 * {@value #CHECKPOINT_MS} ms. Waits poll with a deadline and fail printing the state they saw.
 */
final class PipelineRig implements AutoCloseable {

    static final String TENANT = WindowSettings.DEFAULT_TENANT;
    static final long WINDOW_MS = 1_000;
    static final long GUARD_MS = 10;
    static final long DISCOVERY_MS = 50;
    static final long LEASE_TTL_MS = 2_000;
    static final long CHECKPOINT_MS = 150;
    static final Duration COVER_TIMEOUT = Duration.ofSeconds(90);

    /** Replaced by {@link #restartBrokerEmpty()}; the same URL throughout. */
    DevBroker broker;
    final QueenClient client;
    private final AtomicLong skewMicros = new AtomicLong();
    private final Path dir;
    private final boolean renderPayloads;
    private final UnaryOperator<DevBrokerOptions.Builder> brokerSettings;

    PipelineRig(Path dir) throws Exception {
        this(dir, false);
    }

    /** @param renderPayloads a broker that answers payloads as Queen's raft broker renders them over HTTP */
    PipelineRig(Path dir, boolean renderPayloads) throws Exception {
        this(dir, renderPayloads, UnaryOperator.identity());
    }

    /**
     * @param brokerSettings applied to the dev broker's options (the rig's clock already set) at
     *     each start, {@link #restartBrokerEmpty()} included: a KV write budget, a latency, ...
     */
    PipelineRig(Path dir, UnaryOperator<DevBrokerOptions.Builder> brokerSettings) throws Exception {
        this(dir, false, brokerSettings);
    }

    private PipelineRig(Path dir, boolean renderPayloads, UnaryOperator<DevBrokerOptions.Builder> brokerSettings)
            throws Exception {
        this.dir = dir;
        this.renderPayloads = renderPayloads;
        this.brokerSettings = brokerSettings;
        this.broker = DevBroker.start(brokerOptions().build());
        this.client = HttpQueenClient.builder().baseUrl(broker.url().toString()).tenant(TENANT).build();
    }

    private DevBrokerOptions.Builder brokerOptions() {
        return brokerSettings.apply(
                DevBrokerOptions.builder().clock(() -> wallMicros() + skewMicros.get()).renderPayloads(renderPayloads));
    }

    /**
     * The broker restarted on its port with an empty data dir, as after a lost volume: its log and
     * its KV (commit pointers, intents, leases) are gone; its clock goes on.
     */
    void restartBrokerEmpty() throws Exception {
        int port = broker.url().getPort();
        broker.close();
        broker = DevBroker.start(brokerOptions().port(port).build());
    }

    static long wallMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }

    /** The broker clock now, in microseconds. */
    long brokerMicros() {
        return wallMicros() + skewMicros.get();
    }

    /** Moves the broker's clock forward; it never goes back. */
    void advanceClock(long ms) {
        skewMicros.addAndGet(ms * 1000L);
    }

    /** A {@code file://} lake root of its own under the test folder. */
    String fileRoot(String name) {
        return dir.resolve(name).toAbsolutePath().toUri().toString().replaceAll("/+$", "");
    }

    CommitPointers pointers(String sink) {
        return new CommitPointers(client, sink);
    }

    RunningJob start(LakeJob job) throws Exception {
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, job.restartAttempts() > 0 ? "fixed-delay" : "none");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, Math.max(job.restartAttempts(), 1));
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(200));
        if (job.savepoint() != null) {
            conf.set(StateRecoveryOptions.SAVEPOINT_PATH, job.savepoint());
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(job.parallelism());
        env.enableCheckpointing(CHECKPOINT_MS);
        String url = broker.url().toString();
        QueenSource source = QueenSource.builder()
                .brokerUrl(url)
                .tenant(TENANT)
                .queues(job.queues())
                .sink(job.sink())
                .instance(job.instance())
                .start(job.start())
                .safeGuardMs(GUARD_MS)
                .discoveryIntervalMs(DISCOVERY_MS)
                .leaseTtlMs(job.leaseTtlMs())
                .maxWindowMs(job.windowMs())
                .lakeRoot(job.root() + "/" + Prefix.DEFAULT.value())
                .requestTimeoutMs(5_000)
                .build();
        WindowSettings windows = new WindowSettings(TENANT, job.sink(), job.windowMs(), job.writer().align(),
                job.writer().targetBytes(), job.checkpointEvery(), url, null, Duration.ofSeconds(5),
                job.memoryMb() << 20);
        LakeSinkBuilder sinkBuilder = LakeSink.builder()
                .root(job.root())
                .brokerUrl(url)
                .tenant(TENANT)
                .sinkName(job.sink())
                .writerSettings(job.writer())
                .requestTimeout(Duration.ofSeconds(5));
        if (job.catalog() != null) {
            sinkBuilder.tables(job.catalog());
        }
        if (job.crashAt() != null) {
            sinkBuilder.crashOnceAt(job.crashAt(), job.crashFromK(), "pipeline-" + job.sink() + "-" + job.crashAt());
        }
        LakeSink sink = sinkBuilder.build();
        LakePipeline.attach(env, source, windows, sink);
        JobClient jobClient = env.executeAsync("lake pipeline " + job.sink());
        return new RunningJob(job, jobClient, sink);
    }

    /** The whole stored log of every queue the producer pushed to, read back from the broker. */
    Map<String, List<LogRecord>> readLogs(SeededProducer producer) {
        Map<String, List<LogRecord>> logs = new LinkedHashMap<>();
        for (String queue : producer.queues()) {
            logs.put(queue, BrokerLog.read(client, queue, producer.partitions()));
        }
        return logs;
    }

    static long lastStamp(Collection<LogRecord> records) {
        return records.stream().mapToLong(LogRecord::tsMicros).max().orElseThrow();
    }

    /**
     * Waits until every queue's commit pointer covers its last record ({@code tEnd} above its stamp),
     * failing with the pointers seen when the job ends or the deadline passes.
     */
    Map<String, Committed> awaitCovered(RunningJob job, Map<String, List<LogRecord>> logs) throws InterruptedException {
        CommitPointers store = pointers(job.spec().sink());
        long deadline = System.nanoTime() + COVER_TIMEOUT.toNanos();
        while (true) {
            Map<String, Committed> seen = new LinkedHashMap<>();
            boolean covered = true;
            for (Map.Entry<String, List<LogRecord>> log : logs.entrySet()) {
                Committed c = store.read(log.getKey()).pointer().orElse(null);
                seen.put(log.getKey(), c);
                covered &= c != null && c.tEnd() > lastStamp(log.getValue());
            }
            if (covered) {
                return seen;
            }
            job.assertRunning();
            if (System.nanoTime() > deadline) {
                StringBuilder state = new StringBuilder();
                logs.forEach((q, records) -> state.append("\n  queue '").append(q).append("': last stamp ")
                        .append(lastStamp(records)).append(", pointer ").append(seen.get(q)));
                throw new AssertionError("the pointers of job " + job.spec().sink() + " did not cover the log within "
                        + COVER_TIMEOUT + " (job " + job.status() + "):" + state);
            }
            Thread.sleep(20);
        }
    }

    /** Waits until {@code queue}'s pointer reaches {@code k}; returns it. */
    Committed awaitPointer(RunningJob job, String queue, long k) throws InterruptedException {
        CommitPointers store = pointers(job.spec().sink());
        long deadline = System.nanoTime() + COVER_TIMEOUT.toNanos();
        Committed now = store.read(queue).pointer().orElse(null);
        while (now == null || now.k() < k) {
            job.assertRunning();
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the pointer of queue '" + queue + "' (job " + job.spec().sink()
                        + ") did not reach k=" + k + " within " + COVER_TIMEOUT + "; it is " + now);
            }
            Thread.sleep(20);
            now = store.read(queue).pointer().orElse(null);
        }
        return now;
    }

    /** The checker's verdict on one queue of a job's lake, over manifests 1..committed k. */
    LakeReport check(LakeJob job, String queue, Collection<LogRecord> expected) throws Exception {
        long k = pointers(job.sink()).read(queue).k();
        return new LakeChecker(new FlinkLakeFiles(job.root()), Prefix.DEFAULT).check(TENANT, queue, k, expected);
    }

    /** Asserts every queue's lake holds exactly its expected records once; returns how many windows were committed. */
    long assertExactlyOnce(LakeJob job, Map<String, ? extends Collection<LogRecord>> expected) throws Exception {
        long windows = 0;
        for (Map.Entry<String, ? extends Collection<LogRecord>> e : expected.entrySet()) {
            LakeReport report = check(job, e.getKey(), e.getValue());
            assertThat(report.problems()).as("%s", report).isEmpty();
            assertThat(report.recordsRead()).as("records of queue '%s' in the lake", e.getKey())
                    .isEqualTo(e.getValue().size());
            windows += report.committedK();
        }
        return windows;
    }

    @Override
    public void close() {
        broker.close();
    }
}
