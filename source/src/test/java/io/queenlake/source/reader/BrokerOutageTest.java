package io.queenlake.source.reader;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.broker.client.BrokerOutage;
import io.queenlake.broker.client.HttpQueenClient;
import io.queenlake.broker.client.OffsetQuery;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.client.QueenException;
import io.queenlake.source.testlog.CapturedLog;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An unreachable broker is one WARN per component, naming the broker and the error, then one line when it answers. */
class BrokerOutageTest {

    @Test
    void manyFailedCallsAreOneWarnAndTheFirstAnswerOneInfo() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = free.getLocalPort();
        }
        QueenClient client = HttpQueenClient.builder().baseUrl("http://127.0.0.1:" + port).build();
        BrokerOutage outage = new BrokerOutage("the source's reader", client.broker());
        try (CapturedLog log = CapturedLog.of(BrokerOutage.class)) {
            long start = System.nanoTime();
            for (int i = 0; i < 3; i++) {
                try {
                    client.fetchOffsets(List.of(new OffsetQuery("orders", "p-0", 0L)));
                } catch (QueenException e) {
                    outage.failed(e);
                }
            }
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(15));
            assertThat(outage.open()).isTrue();
            assertThat(log.lines()).singleElement().asString()
                    .startsWith("WARN broker unavailable for the source's reader: http://127.0.0.1:" + port + ": ")
                    .endsWith("; retrying, one line when it answers");
            outage.answered();
            outage.answered();
            assertThat(log.lines()).hasSize(2).last().asString().startsWith("INFO broker available again for the"
                    + " source's reader: http://127.0.0.1:" + port + ", after ").endsWith(" s and 3 failed calls");
            assertThat(outage.open()).isFalse();
        }
    }
}
