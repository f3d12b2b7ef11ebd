package io.queenlake.job.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.broker.client.HttpQueenClient;
import io.queenlake.broker.client.PushItem;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.kv.CommitPointers;
import io.queenlake.devstack.broker.DevBroker;
import io.queenlake.devstack.broker.DevBrokerOptions;
import io.queenlake.job.LakeJob;
import io.queenlake.job.config.LakeSettings;
import io.queenlake.job.config.SettingsLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.runtime.executiongraph.AccessExecutionVertex;
import org.apache.flink.runtime.executiongraph.ArchivedExecutionGraph;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker restarted with another token (README, "What happens on each failure"): the running job
 * stops within seconds with the one sentence naming QUEEN_TOKEN, and Flink does not restart it,
 * although the cluster's restart strategy would restart it a thousand times.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RefusedTokenITCase {

    private static final String QUEUE = "orders";
    /** "Within a few seconds": the lease round runs every TTL/3, discovery every 100 ms, the reader at least every second. */
    private static final Duration STOPS_WITHIN = Duration.ofSeconds(15);

    /** A cluster whose restart strategy would restart a failing job a thousand times, 100 ms apart. */
    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setConfiguration(restartingAThousandTimes()).setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    private static Configuration restartingAThousandTimes() {
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 1000);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(100));
        return conf;
    }

    @TempDir
    static Path dir;

    @Test
    void aBrokerThatStartsRefusingTheTokenStopsTheJobOnceWithOneLineNamingQueenToken(
            @InjectMiniCluster MiniCluster cluster) throws Exception {
        Path data = dir.resolve("broker");
        DevBroker broker = DevBroker.start(DevBrokerOptions.builder().dataDir(data).token("first-token").build());
        int port = broker.port();
        try {
            QueenClient producer = HttpQueenClient.builder().baseUrl(broker.url().toString()).token("first-token").build();
            push(producer, 0, 10);
            LakeSettings settings = settings(broker.url().toString());
            JobClient job = start(settings);
            awaitCommitted(producer, settings, job);

            broker.close();
            broker = DevBroker.start(DevBrokerOptions.builder().port(port).dataDir(data).token("second-token").build());
            long restartedAt = System.nanoTime();

            JobStatus end = awaitEnd(job, STOPS_WITHIN);
            Duration took = Duration.ofNanos(System.nanoTime() - restartedAt);
            assertThat(end).as("the job's end, %s after the broker came back with another token", took)
                    .isEqualTo(JobStatus.FAILED);

            Throwable failure = job.getJobExecutionResult().handle((r, t) -> t).get(10, TimeUnit.SECONDS);
            assertThat(ExceptionUtils.findThrowable(failure, SuppressRestartsException.class))
                    .as("the failure suppresses restarts").isPresent();
            String root = rootCause(failure).getMessage();
            assertThat(root).as("the root cause's message").contains("QUEEN_TOKEN").doesNotContain("\n")
                    .doesNotContain("first-token").doesNotContain("second-token");

            ArchivedExecutionGraph graph = cluster.getArchivedExecutionGraph(job.getJobID()).get(10, TimeUnit.SECONDS);
            for (AccessExecutionVertex vertex : graph.getAllExecutionVertices()) {
                assertThat(vertex.getCurrentExecutionAttempt().getAttemptNumber())
                        .as("attempt of %s (no restart)", vertex.getTaskNameWithSubtaskIndex()).isZero();
            }
        } finally {
            broker.close();
        }
    }

    private static LakeSettings settings(String url) {
        return SettingsLoader.load(Map.of(), new String[] {
            "--queues", QUEUE, "--endpoint", dir.toUri().toString(), "--bucket", "lake",
            "--queen-url", url, "--queen-token", "first-token", "--sink", "token", "--instance", "token-itcase",
            "--start", "earliest", "--max-window-ms", "1000", "--safe-guard-ms", "0",
            "--discovery-interval-ms", "100", "--lease-ttl-ms", "1500"}, new Configuration());
    }

    /** The job as {@code run} builds it, on the cluster's restart strategy. */
    private static JobClient start(LakeSettings settings) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        env.enableCheckpointing(200);
        LakeJob.build(env, settings);
        return env.executeAsync("refused token");
    }

    private static void push(QueenClient client, int from, int count) {
        List<PushItem> items = new ArrayList<>();
        for (int i = from; i < from + count; i++) {
            items.add(PushItem.of(QUEUE, "p-" + (i % 2), "t-" + i, "{\"n\":" + i + "}"));
        }
        client.push(items);
    }

    /** Waits until the job committed a window, so it runs (and holds its lease) when the token changes. */
    private static void awaitCommitted(QueenClient client, LakeSettings settings, JobClient job) throws Exception {
        CommitPointers pointers = new CommitPointers(client, settings.sink());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (pointers.read(QUEUE).pointer().isEmpty()) {
            assertThat(job.getJobStatus().get(10, TimeUnit.SECONDS).isGloballyTerminalState())
                    .as("the job ended before the token changed").isFalse();
            assertThat(System.nanoTime()).as("a first window committed within 60 s").isLessThan(deadline);
            Thread.sleep(100);
        }
    }

    private static JobStatus awaitEnd(JobClient job, Duration within) throws Exception {
        long deadline = System.nanoTime() + within.toNanos();
        JobStatus status = job.getJobStatus().get(10, TimeUnit.SECONDS);
        while (!status.isGloballyTerminalState() && System.nanoTime() < deadline) {
            Thread.sleep(50);
            status = job.getJobStatus().get(10, TimeUnit.SECONDS);
        }
        return status;
    }

    private static Throwable rootCause(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root;
    }
}
