package io.queenlake.broker.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.broker.client.ScriptedBroker.Reply;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ChangedPassWalkerTest {

    private ScriptedBroker broker;

    @BeforeEach
    void start() throws IOException {
        broker = new ScriptedBroker();
    }

    @AfterEach
    void stop() {
        broker.close();
    }

    private static String partition(String name, long lastOffset) {
        return "{\"name\":\"" + name + "\",\"id\":\"id-" + name + "\",\"lastOffset\":" + lastOffset
                + ",\"logStart\":0,\"lastWriteAt\":\"2026-10-03T06:37:37.000001Z\"}";
    }

    @Test
    void aPassFollowsEveryCursorAndKeepsTheSmallestSafeTime() {
        broker.then(Reply.json(200, "{\"safeTime\":\"2026-10-03T06:37:44.000003Z\",\"safeTimeDegraded\":false,\"entries\":["
                        + "{\"queue\":\"a\",\"partitions\":[" + partition("a0", 1) + "," + partition("a1", 2) + "],\"next\":\"p|2\"},"
                        + "{\"queue\":\"b\",\"partitions\":[" + partition("b0", 0) + "],\"next\":null},"
                        + "{\"queue\":\"ghost\",\"error\":\"UNKNOWN_TOPIC_OR_PARTITION\"}]}"))
                .then(Reply.json(200, "{\"safeTime\":\"2026-10-03T06:37:44.000001Z\",\"safeTimeDegraded\":false,\"entries\":["
                        + "{\"queue\":\"a\",\"partitions\":[" + partition("a2", 5) + "," + partition("a3", 6) + "],\"next\":\"p|4\"}]}"))
                .then(Reply.json(200, "{\"safeTime\":\"2026-10-03T06:37:44.000002Z\",\"safeTimeDegraded\":false,\"entries\":["
                        + "{\"queue\":\"a\",\"partitions\":[],\"next\":null}]}"));

        ChangedPass pass = ChangedPassWalker.walk(broker.client(), List.of("a", "b", "ghost"), OptionalLong.empty(), 2);

        assertThat(pass.safeTimeMicros()).isEqualTo(BrokerTime.parseMicros("2026-10-03T06:37:44.000001Z"));
        assertThat(pass.partitions().get("a")).extracting(PartitionInfo::name).containsExactly("a0", "a1", "a2", "a3");
        assertThat(pass.partitions().get("b")).extracting(PartitionInfo::name).containsExactly("b0");
        assertThat(pass.errors()).isEqualTo(Map.of("ghost", EntryError.UNKNOWN_TOPIC_OR_PARTITION));
        assertThat(pass.calls()).isEqualTo(3);
        assertThat(broker.calls().get(0).body()).isEqualTo("{\"entries\":["
                + "{\"queue\":\"a\",\"since\":null,\"after\":null,\"limit\":2},"
                + "{\"queue\":\"b\",\"since\":null,\"after\":null,\"limit\":2},"
                + "{\"queue\":\"ghost\",\"since\":null,\"after\":null,\"limit\":2}]}");
        assertThat(broker.calls().get(1).body()).isEqualTo(
                "{\"entries\":[{\"queue\":\"a\",\"since\":null,\"after\":\"p|2\",\"limit\":2}]}");
        assertThat(broker.calls().get(2).body()).isEqualTo(
                "{\"entries\":[{\"queue\":\"a\",\"since\":null,\"after\":\"p|4\",\"limit\":2}]}");
    }

    @Test
    void aPassOverNoQueuesAsksSafeTimeAlone() {
        broker.then(Reply.json(200, "{\"safeTime\":\"2026-10-03T06:37:44.965167Z\",\"safeTimeDegraded\":false,\"entries\":[]}"));
        ChangedPass pass = ChangedPassWalker.walk(broker.client(), List.of(), OptionalLong.empty(), 1000);
        assertThat(pass.safeTimeMicros()).isEqualTo(1_791_009_464_965_167L);
        assertThat(broker.calls().get(0).body()).isEqualTo("{\"entries\":[]}");
    }

    @Test
    void sinceIsSentAsABrokerTimestamp() {
        broker.then(Reply.json(200, "{\"safeTime\":\"2026-10-03T06:37:44.965167Z\",\"entries\":[{\"queue\":\"a\",\"partitions\":[],\"next\":null}]}"));
        ChangedPassWalker.walk(broker.client(), List.of("a"), OptionalLong.of(1_791_009_457_501_942L), 10);
        assertThat(broker.calls().get(0).body()).contains("\"since\":\"2026-10-03T06:37:37.501942Z\"");
    }
}
