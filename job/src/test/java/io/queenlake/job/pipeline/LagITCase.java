package io.queenlake.job.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.broker.kv.CommitPointers;
import io.queenlake.broker.kv.CompleteThrough;
import io.queenlake.devstack.s3.EmbeddedS3;
import io.queenlake.devstack.s3.EmbeddedS3Options;
import io.queenlake.format.manifest.LeaseDoc;
import io.queenlake.format.model.LogRecord;
import io.queenlake.connector.testutils.FlinkS3ForTests;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Lag as the reference defines it (docs/ARCHITECTURE.md "Lag"): the broker's safeTime minus
 * {@code completeThrough}. On a queue that went quiet it stays near the guard, because a checkpoint
 * with nothing open moves {@code completeThrough} on; on a queue whose windows cannot be committed
 * it grows. The {@code lagSeconds} gauge and the figure {@code ./queen-lake status} computes from
 * the broker alone ({@link CompleteThrough} over the pointer and the lease) agree.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class LagITCase {

    static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setConfiguration(REPORTER.addToConfiguration(new Configuration()))
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    @TempDir
    static Path dir;

    static final List<String> PARTITIONS = List.of("p0", "p1");
    /** The guard, two checkpoint intervals and one lease beat (a third of the lease TTL). */
    static final long BOUND_MS = PipelineRig.GUARD_MS + 2 * PipelineRig.CHECKPOINT_MS + PipelineRig.LEASE_TTL_MS / 3;
    /** How long a quiet queue is watched (the issue asks a minute of a real deployment; the rig's clocks are short). */
    static final long QUIET_MS = 10_000;

    private static PipelineRig rig;
    private static EmbeddedS3 s3;

    @BeforeAll
    static void start() throws Exception {
        s3 = EmbeddedS3.start(EmbeddedS3Options.builder().dir(dir.resolve("s3")).accessKey("k").secretKey("s")
                .bucket("lake").build());
        FlinkS3ForTests.initialize(s3);
        rig = new PipelineRig(dir);
    }

    @AfterAll
    static void stop() {
        rig.close();
        s3.close();
    }

    @Test
    void aQuietQueuesLagStaysNearTheGuardInTheGaugeAndInStatus() throws Exception {
        SeededProducer producer = new SeededProducer(rig.client, 91, List.of("quiet"), PARTITIONS);
        producer.pushRounds(10, 30);
        Map<String, List<LogRecord>> logs = rig.readLogs(producer);
        LakeJob spec = LakeJob.of("quiet", rig.fileRoot("quiet"), List.of("quiet")).parallelism(1);
        RunningJob job = rig.start(spec);
        rig.awaitCovered(job, logs);
        Thread.sleep(BOUND_MS); // the first lease round after the covering checkpoint
        List<Long> gauge = new ArrayList<>();
        List<Long> status = new ArrayList<>();
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(QUIET_MS);
        while (System.nanoTime() < until) {
            job.assertRunning();
            lagGauge(job, "quiet").ifPresent(s -> gauge.add(Math.round(s * 1000)));
            statusLag(spec, "quiet").ifPresent(status::add);
            Thread.sleep(100);
        }
        job.cancel();
        System.out.printf("a quiet queue for %d ms after its last push: lagSeconds (ms) max %d over %d samples, status max %d"
                + " over %d samples; bound guard + 2 checkpoints + 1 lease beat = %d ms%n", QUIET_MS,
                max(gauge), gauge.size(), max(status), status.size(), BOUND_MS);
        assertThat(gauge).as("lagSeconds samples").isNotEmpty();
        assertThat(max(gauge)).as("lagSeconds of the quiet queue, ms: %s", gauge).isLessThanOrEqualTo(BOUND_MS);
        assertThat(max(status)).as("status lag of the quiet queue, ms: %s", status).isLessThanOrEqualTo(BOUND_MS);
    }

    @Test
    void aQueueWhoseBucketRefusesWritesShowsItsLagGrowing() throws Exception {
        SeededProducer producer = new SeededProducer(rig.client, 92, List.of("stuck"), PARTITIONS);
        producer.pushRounds(5, 30);
        LakeJob spec = LakeJob.of("stuck", "s3://lake/stuck", List.of("stuck")).parallelism(1).restarts(100);
        RunningJob job = rig.start(spec);
        rig.awaitCovered(job, rig.readLogs(producer));
        s3.failWritesUnder("stuck/");
        try {
            producer.pushRounds(5, 30);
            List<Long> gauge = new ArrayList<>();
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(6);
            while (System.nanoTime() < until) {
                lagGauge(job, "stuck").ifPresent(s -> gauge.add(Math.round(s * 1000)));
                Thread.sleep(200);
            }
            OptionalLong status = statusLag(spec, "stuck");
            System.out.printf("a queue whose bucket refuses writes: lagSeconds (ms) %s, status %s%n", gauge, status);
            assertThat(max(gauge)).as("lagSeconds of a queue that cannot commit, ms: %s", gauge)
                    .isGreaterThan(4 * BOUND_MS);
            assertThat(gauge.get(gauge.size() - 1)).as("it grows").isGreaterThan(gauge.get(gauge.size() / 2));
            assertThat(status).isPresent();
            assertThat(status.getAsLong()).as("status lag, ms").isGreaterThan(4 * BOUND_MS);
        } finally {
            s3.failWritesUnder(null);
            job.cancel();
        }
    }

    /** The enumerator's {@code lagSeconds} of {@code queue}, as a reporter reads it. */
    private static OptionalDouble lagGauge(RunningJob job, String queue) {
        double[] found = {Double.NaN};
        REPORTER.findMetrics(job.client().getJobID(), "\\.lagSeconds$").forEach((id, m) -> {
            if (id.endsWith(".queue." + queue + ".lagSeconds")) {
                Object v = ((Gauge<?>) m).getValue();
                if (v instanceof Number n && !Double.isNaN(n.doubleValue())) {
                    found[0] = n.doubleValue();
                }
            }
        });
        return Double.isNaN(found[0]) ? OptionalDouble.empty() : OptionalDouble.of(found[0]);
    }

    /** What {@code ./queen-lake status} computes: the broker's safeTime minus completeThrough from the pointer and the lease. */
    private static OptionalLong statusLag(LakeJob spec, String queue) {
        CommitPointers pointers = rig.pointers(spec.sink());
        long safeTime = rig.client.safeTimeMicros();
        return CompleteThrough.lagMillis(safeTime, pointers.read(queue).pointer(),
                pointers.lease(queue).flatMap(CommitPointers.LeaseRow::holder).flatMap(LeaseDoc::progress));
    }

    private static long max(List<Long> values) {
        return values.stream().mapToLong(Long::longValue).max().orElse(-1);
    }
}
