package io.queenlake.job.sink.committer;

import static io.queenlake.job.sink.committer.LakeCommitterQueuesTest.awaitQuietly;
import static io.queenlake.job.sink.committer.LakeCommitterQueuesTest.client;
import static io.queenlake.job.sink.committer.LakeCommitterQueuesTest.stagedWindows;
import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.broker.client.ChangedPage;
import io.queenlake.broker.client.ChangedQuery;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.kv.CommitPointers;
import io.queenlake.devstack.broker.DevBroker;
import io.queenlake.devstack.broker.DevBrokerOptions;
import io.queenlake.job.metrics.LakeMetrics;
import io.queenlake.job.metrics.RecordingMetricGroup;
import io.queenlake.job.sink.LakeSink;
import io.queenlake.job.sink.LakeSinkConfig;
import io.queenlake.job.sink.committable.WindowCommittable;
import io.queenlake.job.testutils.TestWindows;
import io.queenlake.source.testutils.ForwardingQueenClient;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.connector.sink2.Committer.CommitRequest;
import org.apache.flink.metrics.Gauge;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The broker's safeTime behind {@code lagSeconds} is read off the commit path: commit calls
 * return while the {@code partitions/changed} answer is still held, and the gauge follows once it
 * arrives. Against the dev broker and a {@code file://} lake.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LakeCommitterSafeTimeTest {

    private static final long LAG_MICROS = 42_500_000L;

    @TempDir
    Path dir;

    private final RecordingMetricGroup registered = new RecordingMetricGroup();

    @Test
    void commitCallsReturnWhileTheSafeTimeReadIsHeldAndLagSecondsFollowsItsAnswer() throws Exception {
        TestWindows world = new TestWindows(List.of("orders"), 2, 3);
        try (DevBroker broker = DevBroker.start(DevBrokerOptions.builder().build())) {
            LakeSinkConfig config = LakeSink.builder().root(dir.toUri() + "lake").brokerUrl(broker.url().toString())
                    .build().config();
            List<WindowCommittable> windows = stagedWindows(config, world);
            long lastTEnd = windows.get(1).manifest().tEnd();
            CountDownLatch asked = new CountDownLatch(1);
            CountDownLatch answer = new CountDownLatch(1);
            QueenClient holding = new ForwardingQueenClient(client(broker)) {
                @Override
                public ChangedPage partitionsChanged(List<ChangedQuery> queries) {
                    ChangedPage real = super.partitionsChanged(queries);
                    asked.countDown();
                    awaitQuietly(answer);
                    // A safeTime 42.5 s past the last window's end, whatever the broker's clock says.
                    return new ChangedPage(lastTEnd + LAG_MICROS, real.safeTimeDegraded(), real.entries());
                }
            };
            LakeCommitter committer = new LakeCommitter(config, new LakeMetrics(registered), holding);
            try {
                // Were the read on the commit path, the first call would wait for the answer for ever.
                committer.commit(List.of(request(windows.get(0))));
                asked.await();
                committer.commit(List.of(request(windows.get(1))));

                assertThat(new CommitPointers(client(broker), "default").read("orders").k()).isEqualTo(2);
                assertThat(lagSeconds()).as("lagSeconds before any safeTime arrived").isEqualTo(0.0);

                answer.countDown();
                while (lagSeconds() == 0.0) {
                    Thread.sleep(10);
                }
                assertThat(lagSeconds()).isEqualTo(42.5);
            } finally {
                answer.countDown();
                committer.close();
            }
        }
    }

    private static CommitRequest<WindowCommittable> request(WindowCommittable window) {
        return new RecordingCommitRequest<>(window);
    }

    private double lagSeconds() {
        return (Double) ((Gauge<?>) registered.get("queue=orders." + LakeMetrics.LAG_SECONDS)).getValue();
    }
}
