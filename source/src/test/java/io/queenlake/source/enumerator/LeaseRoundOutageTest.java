package io.queenlake.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.broker.client.BrokerOutage;
import io.queenlake.broker.client.HttpQueenClient;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.kv.LeaseKeeper;
import io.queenlake.broker.kv.SinkKeys;
import io.queenlake.devstack.broker.DevBroker;
import io.queenlake.devstack.broker.DevBrokerOptions;
import io.queenlake.source.testlog.CapturedLog;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An unreachable broker is one WARN for the lease rounds, however many rounds it cuts short, and
 * one line when a round is answered again: the lease keeper reports through {@link BrokerOutage}.
 */
class LeaseRoundOutageTest {

    @Test
    void roundsCutShortByAnUnreachableBrokerAreOneWarnAndTheFirstAnsweredRoundOneInfo() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = free.getLocalPort();
        }
        QueenClient client = HttpQueenClient.builder().baseUrl("http://127.0.0.1:" + port).build();
        LeaseKeeper leases = new LeaseKeeper(client, new SinkKeys("test"), "node-a", 3_000);
        leases.want(List.of("orders"));
        try (CapturedLog log = CapturedLog.of(BrokerOutage.class)) {
            for (int round = 0; round < 3; round++) {
                assertThat(leases.tick().failure()).isPresent();
            }
            assertThat(log.lines()).singleElement().asString()
                    .startsWith("WARN broker unavailable for the lease rounds of instance node-a: http://127.0.0.1:" + port);

            try (DevBroker broker = DevBroker.start(DevBrokerOptions.builder().port(port).build())) {
                assertThat(leases.tick().failure()).isEmpty();
                leases.tick();
            }
            assertThat(log.lines()).hasSize(2).last().asString()
                    .startsWith("INFO broker available again for the lease rounds of instance node-a")
                    .endsWith("and 3 failed calls");
        }
    }
}
