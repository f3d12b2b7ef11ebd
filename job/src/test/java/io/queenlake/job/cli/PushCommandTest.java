package io.queenlake.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.broker.client.ChangedPass;
import io.queenlake.broker.client.ChangedPassWalker;
import io.queenlake.broker.client.HttpQueenClient;
import io.queenlake.broker.client.PartitionInfo;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.devstack.broker.DevBroker;
import io.queenlake.devstack.broker.DevBrokerOptions;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class PushCommandTest {

    private static DevBroker broker;
    private static QueenClient queen;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = DevBroker.start(DevBrokerOptions.builder().build());
        queen = HttpQueenClient.builder().baseUrl(broker.url().toString()).build();
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    @Test
    void generatedOrdersAreSpreadOverThePartitionsAndCounted() {
        int exit = Main.run(new String[] {
            "push", "--queue", "orders-a", "--url", broker.url().toString(),
            "--count", "1201", "--partitions", "3", "--payload-bytes", "120", "--run-id", "r1"});

        assertThat(exit).isZero();
        assertThat(lastOffsets("orders-a")).isEqualTo(Map.of("p-0", 400L, "p-1", 399L, "p-2", 399L));
    }

    @Test
    void aRepeatedRunIsDeduplicatedByTheBrokerInsteadOfDoubled() {
        String[] push = {
            "push", "--queue", "orders-b", "--url", broker.url().toString(),
            "--count", "700", "--partition", "only", "--run-id", "same-run"};

        assertThat(Main.run(push)).isZero();
        assertThat(Main.run(push)).isZero();

        assertThat(lastOffsets("orders-b")).isEqualTo(Map.of("only", 699L));
    }

    @Test
    void aMisspeltOptionIsRefusedByName() {
        assertThat(Main.run(new String[] {"push", "--queue", "q", "--cuont", "5"})).isEqualTo(2);
        assertThat(Main.run(new String[] {"push", "--queue", "q", "--partition", "a", "--partitions", "3"})).isEqualTo(2);
        assertThat(Main.run(new String[] {"no-such-command"})).isEqualTo(2);
    }

    @Test
    void anUnreachableBrokerFailsWithExitCodeOne() {
        int exit = Main.run(new String[] {
            "push", "--queue", "q", "--url", "http://127.0.0.1:1", "--count", "1"});

        assertThat(exit).isEqualTo(1);
    }

    private static Map<String, Long> lastOffsets(String queue) {
        ChangedPass pass = ChangedPassWalker.walk(queen, List.of(queue), OptionalLong.empty(), 1000);
        Map<String, Long> last = new TreeMap<>();
        for (PartitionInfo p : pass.partitions().get(queue)) {
            last.put(p.name(), p.lastOffset());
        }
        return last;
    }
}
