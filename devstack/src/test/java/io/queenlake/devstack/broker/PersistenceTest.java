package io.queenlake.devstack.broker;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A broker with a data dir keeps its log, KV, dedup and clock across a restart, and survives a torn tail. */
class PersistenceTest {

    @TempDir
    Path dir;

    @Test
    void aRestartedBrokerKeepsItsLogKvAndIncarnations() throws IOException {
        ManualClock clock = new ManualClock();
        String id;
        String partitionsBefore;
        long version;
        try (DevBroker first = start(clock)) {
            WireClient wire = new WireClient(first.url());
            wire.post("/api/v1/push", "{\"items\":[{\"queue\":\"orders\",\"partition\":\"a\",\"transactionId\":\"t-1\",\"payload\":{\"x\": 1}},"
                    + "{\"queue\":\"orders\",\"partition\":\"b\",\"payload\":[1, 2]},{\"queue\":\"orders\",\"partition\":\"a\",\"payload\":\"\"}]}");
            version = wire.kv("[{\"ns\":\"queen-s3\",\"op\":\"put\",\"key\":\"s3:default:orders:committed\",\"value\":{\"k\":3},\"forever\":true}]")
                    .get("results").get(0).get("version").asLong();
            partitionsBefore = wire.changed("[{\"queue\":\"orders\"}]").get("entries").toString();
            id = wire.changed("[{\"queue\":\"orders\"}]").get("entries").get(0).get("partitions").get(0).get("id").asText();
        }
        try (DevBroker second = start(clock)) {
            WireClient wire = new WireClient(second.url());
            String raw = wire.post("/api/v1/fetch", "{\"entries\":[{\"queue\":\"orders\",\"partition\":\"a\",\"offset\":0}]}").text();
            JsonNode kv = wire.kv("[{\"ns\":\"queen-s3\",\"op\":\"get\",\"key\":\"s3:default:orders:committed\"}]").get("results").get(0);
            JsonNode retry = wire.post("/api/v1/push",
                    "{\"items\":[{\"queue\":\"orders\",\"partition\":\"a\",\"transactionId\":\"t-1\",\"payload\":1}]}").json().get(0);

            assertThat(raw).contains("\"payload\":{\"x\": 1}").contains("\"payload\":\"\"");
            assertThat(wire.changed("[{\"queue\":\"orders\"}]").get("entries").toString()).isEqualTo(partitionsBefore);
            assertThat(wire.changed("[{\"queue\":\"orders\"}]").get("entries").get(0).get("partitions").get(0).get("id").asText())
                    .isEqualTo(id);
            assertThat(kv.get("version").asLong()).isEqualTo(version);
            assertThat(retry.get("status").asText()).isEqualTo("duplicate");
            assertThat(retry.get("offset").asLong()).isZero();
            long next = wire.kv("[{\"ns\":\"queen-s3\",\"op\":\"put\",\"key\":\"other\",\"value\":1,\"forever\":true}]")
                    .get("results").get(0).get("version").asLong();
            assertThat(next).isGreaterThan(version);
        }
    }

    @Test
    void stampsNeverGoBelowWhatTheBrokerIssuedBeforeARestart() throws IOException {
        ManualClock clock = new ManualClock();
        clock.advanceSeconds(1000);
        long before;
        try (DevBroker first = start(clock)) {
            WireClient wire = new WireClient(first.url());
            wire.push("q", "p", null, "1");
            before = BrokerTime.parseMicros(wire.fetch("q", "p", 0).get("records").get(0).get("ts").asText());
        }
        ManualClock earlier = new ManualClock();
        try (DevBroker second = start(earlier)) {
            WireClient wire = new WireClient(second.url());
            assertThat(BrokerTime.parseMicros(wire.safeTime())).isGreaterThanOrEqualTo(before);
            wire.push("q", "p", null, "2");
            long after = BrokerTime.parseMicros(wire.fetch("q", "p", 1).get("records").get(0).get("ts").asText());
            assertThat(after).isGreaterThan(before);
        }
    }

    @Test
    void retentionDeletionsAndConfigurationSurviveARestart() throws IOException {
        ManualClock clock = new ManualClock();
        try (DevBroker first = start(clock)) {
            WireClient wire = new WireClient(first.url());
            wire.post("/api/v1/configure", "{\"queue\":\"r\",\"options\":{\"retentionEnabled\":true,\"retentionSeconds\":10}}");
            wire.push("r", "p", null, "1");
            wire.push("r", "gone", null, "1");
            first.deletePartition(Tenant.DEFAULT_ID, "r", "gone");
            clock.advanceSeconds(20);
            wire.push("r", "p", null, "2");
            first.runRetentionNow();
        }
        try (DevBroker second = start(clock)) {
            WireClient wire = new WireClient(second.url());
            JsonNode p = wire.fetch("r", "p", 1);
            assertThat(p.get("logStartOffset").asLong()).isEqualTo(1);
            assertThat(p.get("records")).hasSize(1);
            assertThat(wire.fetch("r", "gone", 0).get("highWatermark").asLong()).isZero();
            clock.advanceSeconds(20);
            second.runRetentionNow();
            assertThat(wire.fetch("r", "p", 2).get("logStartOffset").asLong()).isEqualTo(2);
        }
    }

    @Test
    void aTornTailIsDroppedAndEverythingBeforeItIsKept() throws IOException {
        ManualClock clock = new ManualClock();
        try (DevBroker first = start(clock)) {
            new WireClient(first.url()).push("torn", "p", null, "{\"kept\":true}");
        }
        Path journal = dir.resolve(Journal.FILE_NAME);
        Files.write(journal, new byte[] {0, 0, 0, 40, 1, 2, 3, 4, 9, 9}, StandardOpenOption.APPEND);

        try (DevBroker second = start(clock)) {
            WireClient wire = new WireClient(second.url());
            assertThat(wire.fetch("torn", "p", 0).get("records").get(0).get("payload").toString()).isEqualTo("{\"kept\":true}");
            wire.push("torn", "p", null, "2");
        }
        try (DevBroker third = start(clock)) {
            assertThat(new WireClient(third.url()).fetch("torn", "p", 0).get("highWatermark").asLong()).isEqualTo(2);
        }
    }

    private DevBroker start(ManualClock clock) throws IOException {
        return DevBroker.start(DevBrokerOptions.builder().dataDir(dir).clock(clock).build());
    }
}
