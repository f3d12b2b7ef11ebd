package io.queenlake.devstack.broker;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** partitions/changed: creation order, cursor paging, since, incarnations and per-entry errors. */
class DiscoveryTest {

    private static final ManualClock CLOCK = new ManualClock();
    private static DevBroker broker;
    private static WireClient wire;

    @BeforeAll
    static void start() throws IOException {
        broker = DevBroker.start(DevBrokerOptions.builder().clock(CLOCK).build());
        wire = new WireClient(broker.url());
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    @Test
    void partitionsComeInCreationOrderAndNextIsSetExactlyWhenThePageIsFull() {
        for (String p : new String[] {"zeta", "alpha", "mid"}) {
            wire.push("paged", p, null, "1");
        }
        JsonNode first = entry("{\"queue\":\"paged\",\"limit\":2}");
        JsonNode second = entry("{\"queue\":\"paged\",\"limit\":2,\"after\":\"" + first.get("next").asText() + "\"}");
        JsonNode fullLast = entry("{\"queue\":\"paged\",\"limit\":1,\"after\":\"" + first.get("next").asText() + "\"}");

        assertThat(first.get("partitions").findValuesAsText("name")).containsExactly("zeta", "alpha");
        assertThat(first.get("next").asText()).matches("p\\|\\d+");
        assertThat(second.get("partitions").findValuesAsText("name")).containsExactly("mid");
        assertThat(second.get("next").isNull()).isTrue();
        assertThat(fullLast.get("next").isNull()).isFalse();
        JsonNode afterFull = entry("{\"queue\":\"paged\",\"limit\":1,\"after\":\"" + fullLast.get("next").asText() + "\"}");
        assertThat(afterFull.get("partitions")).isEmpty();
        assertThat(afterFull.get("next").isNull()).isTrue();
    }

    @Test
    void aRowCarriesItsIncarnationBoundsAndLastWrite() {
        wire.push("rows", "p", null, "1");
        wire.push("rows", "p", null, "2");
        JsonNode row = entry("{\"queue\":\"rows\"}").get("partitions").get(0);
        JsonNode last = wire.fetch("rows", "p", 1).get("records").get(0);

        assertThat(row.get("id").asText()).matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
        assertThat(row.get("lastOffset").asLong()).isEqualTo(1);
        assertThat(row.get("logStart").asLong()).isZero();
        assertThat(row.get("lastWriteAt").asText()).isEqualTo(last.get("ts").asText());
    }

    @Test
    void aDeletedPartitionComesBackWithANewIdAndOffsetsFromZero() {
        wire.push("reborn", "p", null, "1");
        wire.push("reborn", "p", null, "2");
        String oldId = entry("{\"queue\":\"reborn\"}").get("partitions").get(0).get("id").asText();

        broker.deletePartition(Tenant.DEFAULT_ID, "reborn", "p");
        JsonNode gone = wire.fetch("reborn", "p", 0);
        long offset = wire.push("reborn", "p", null, "3");
        JsonNode row = entry("{\"queue\":\"reborn\"}").get("partitions").get(0);

        assertThat(gone.get("highWatermark").asLong()).isZero();
        assertThat(offset).isZero();
        assertThat(row.get("id").asText()).isNotEqualTo(oldId);
        assertThat(row.get("lastOffset").asLong()).isZero();
    }

    @Test
    void sinceListsOnlyPartitionsWrittenAtOrAfterIt() {
        wire.push("since", "old", null, "1");
        CLOCK.advanceSeconds(10);
        wire.push("since", "new", null, "1");
        String newTs = wire.fetch("since", "new", 0).get("records").get(0).get("ts").asText();

        JsonNode recent = entry("{\"queue\":\"since\",\"since\":\"" + newTs + "\"}");
        assertThat(recent.get("partitions").findValuesAsText("name")).containsExactly("new");
        assertThat(wire.post("/api/v1/partitions/changed", "{\"entries\":[{\"queue\":\"since\",\"since\":\"yesterday\"}]}").status())
                .isEqualTo(400);
    }

    @Test
    void unknownQueuesAndForeignCursorsAreErrorsOfTheirEntryOnly() {
        wire.push("cursors", "p", null, "1");
        JsonNode answer = wire.changed("[{\"queue\":\"ghost\"},{\"queue\":\"cursors\",\"after\":\"n|p\"},"
                + "{\"queue\":\"cursors\",\"after\":7},{\"queue\":\"cursors\",\"after\":\"\"}]");
        JsonNode entries = answer.get("entries");

        assertThat(entries.get(0).get("error").asText()).isEqualTo("UNKNOWN_TOPIC_OR_PARTITION");
        assertThat(entries.get(1).get("error").asText()).isEqualTo("BAD_CURSOR");
        assertThat(entries.get(2).get("error").asText()).isEqualTo("BAD_CURSOR");
        assertThat(entries.get(3).get("partitions")).hasSize(1);
        assertThat(answer.get("safeTimeDegraded").asBoolean()).isFalse();
    }

    @Test
    void anEmptyRequestAnswersSafeTimeAlone() {
        JsonNode answer = wire.changed("[]");
        assertThat(answer.get("safeTime").asText()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{6}Z");
        assertThat(answer.get("entries")).isEmpty();
    }

    @Test
    void everyRecordStampedAtOrBelowSafeTimeIsInTheRows() {
        wire.push("covered", "a", null, "1");
        wire.push("covered", "b", null, "1");
        JsonNode answer = wire.changed("[{\"queue\":\"covered\"}]");
        long safeTime = BrokerTime.parseMicros(answer.get("safeTime").asText());
        for (JsonNode row : answer.get("entries").get(0).get("partitions")) {
            assertThat(BrokerTime.parseMicros(row.get("lastWriteAt").asText())).isLessThanOrEqualTo(safeTime);
        }
        assertThat(answer.get("entries").get(0).get("partitions")).hasSize(2);
    }

    private static JsonNode entry(String entryJson) {
        return wire.changed("[" + entryJson + "]").get("entries").get(0);
    }
}
