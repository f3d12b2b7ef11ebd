package io.queenlake.format.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queenlake.format.model.Layout;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class KvDocumentsTest {

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void committedWritesTEndAsAnIsoStamp() {
        Committed c = new Committed(1, 1791009600000000L, "queen/_queen/m.json", 3, 207, 1791009464741L);
        assertThat(text(c.toJson())).isEqualTo("{\"k\":1,\"tEnd\":\"2026-10-03T06:40:00.000000Z\","
                + "\"manifest\":\"queen/_queen/m.json\",\"records\":3,\"bytes\":207,\"committedAtMs\":1791009464741}");
        assertThat(Committed.fromJson(c.toJson())).isEqualTo(c);
    }

    @Test
    void committedReadsAnIntegerOrPlusZeroTEnd() {
        Committed integer = Committed.fromJson(bytes("{\"k\":4,\"tEnd\":1791009600000000,\"manifest\":\"m\","
                + "\"records\":1,\"bytes\":2,\"committedAtMs\":3}"));
        Committed offset = Committed.fromJson(bytes("{\"k\":4,\"tEnd\":\"2026-10-03T06:40:00+00:00\",\"manifest\":\"m\","
                + "\"records\":1,\"bytes\":2,\"committedAtMs\":3}"));
        assertThat(integer.tEnd()).isEqualTo(1791009600000000L);
        assertThat(offset).isEqualTo(integer);
    }

    @Test
    void intentWritesItsFieldsInOrder() {
        Intent i = new Intent(2, 10, 20, "jsonl", "zstd", Layout.PER_PARTITION, "queen-lake/0.1.0 jsonl+zstd");
        assertThat(text(i.toJson())).isEqualTo("{\"k\":2,\"tStart\":10,\"tEnd\":20,\"format\":\"jsonl\","
                + "\"compression\":\"zstd\",\"layout\":\"per-partition\",\"writer\":\"queen-lake/0.1.0 jsonl+zstd\"}");
        assertThat(Intent.fromJson(i.toJson())).isEqualTo(i);
    }

    @Test
    void leaseWritesInstanceIncarnationAndSince() {
        LeaseDoc l = new LeaseDoc("node-1@host", "00ff00ff00ff00ff", 1791009464741L);
        assertThat(text(l.toJson()))
                .isEqualTo("{\"instance\":\"node-1@host\",\"incarnation\":\"00ff00ff00ff00ff\",\"sinceMs\":1791009464741}");
        assertThat(LeaseDoc.fromJson(l.toJson())).isEqualTo(l);
    }

    @Test
    void aLeaseCarriesItsHoldersProgressAndOneWithoutStillReads() {
        LeaseDoc l = new LeaseDoc("node-1@host", "00ff00ff00ff00ff", 1791009464741L,
                Optional.of(new LeaseDoc.Progress(12, 1_791_009_460_000_000L)));
        assertThat(text(l.toJson())).isEqualTo("{\"instance\":\"node-1@host\",\"incarnation\":\"00ff00ff00ff00ff\","
                + "\"sinceMs\":1791009464741,\"closedK\":12,\"closedThrough\":\"2026-10-03T06:37:40.000000Z\"}");
        assertThat(LeaseDoc.fromJson(l.toJson())).isEqualTo(l);
        assertThat(LeaseDoc.fromJson(bytes("{\"instance\":\"i\",\"incarnation\":\"x\",\"sinceMs\":1}")).progress())
                .isEmpty();
    }

    @Test
    void aMistypedFieldIsNamed() {
        assertThatThrownBy(() -> Committed.fromJson(bytes("{\"k\":\"one\",\"tEnd\":1,\"manifest\":\"m\"}")))
                .hasMessage("the committed pointer field 'k' is not an integer: one");
        assertThatThrownBy(() -> Committed.fromJson(bytes("{\"k\":1,\"tEnd\":\"soon\",\"manifest\":\"m\"}")))
                .hasMessageStartingWith("the committed pointer field 'tEnd' 'soon' is not a UTC stamp");
        assertThatThrownBy(() -> Intent.fromJson(bytes("{\"k\":1,")))
                .hasMessageStartingWith("the intent is not valid JSON");
    }
}
