package io.queenlake.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.queenlake.broker.client.HttpQueenClient;
import io.queenlake.devstack.broker.DevBroker;
import io.queenlake.devstack.broker.DevBrokerOptions;
import io.queenlake.source.QueenSource;
import io.queenlake.source.QueenSourceConfig;
import io.queenlake.source.StartMode;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A broker that refuses the enumerator's token: its lease round and its discovery run fail the job
 * for good ({@link SuppressRestartsException}), with the client's sentence naming QUEEN_TOKEN.
 */
class RefusedTokenTest {

    private DevBroker broker;
    private RecordingContext context;
    private QueenSplitEnumerator enumerator;

    @BeforeEach
    void start() throws Exception {
        broker = DevBroker.start(DevBrokerOptions.builder().token("right").build());
        QueenSourceConfig config = QueenSource.builder().brokerUrl(broker.url().toString()).token("wrong")
                .queues("orders").sink("test").instance("node-a").start(StartMode.EARLIEST)
                .discoveryIntervalMs(100).leaseTtlMs(1_000).requestTimeoutMs(5_000).build().config();
        context = new RecordingContext(1);
        enumerator = new QueenSplitEnumerator(config, context, QueenEnumState.empty(), HttpQueenClient.builder()
                .baseUrl(broker.url().toString()).token("wrong").build());
        enumerator.start();
    }

    @AfterEach
    void stop() throws Exception {
        enumerator.close();
        context.close();
        broker.close();
    }

    @Test
    void aRefusedLeaseRoundStopsTheJobWithoutARestart() {
        assertStopsForGood(catchThrowable(context::leaseRound));
    }

    @Test
    void aRefusedDiscoveryRunStopsTheJobWithoutARestart() {
        assertStopsForGood(catchThrowable(context::discoveryRun));
    }

    private static void assertStopsForGood(Throwable failure) {
        assertThat(failure).isInstanceOf(SuppressRestartsException.class);
        assertThat(ExceptionUtils.stripException(failure, SuppressRestartsException.class).getMessage())
                .contains("refused the token").endsWith("check QUEEN_TOKEN").doesNotContain("\n").doesNotContain("wrong");
    }
}
