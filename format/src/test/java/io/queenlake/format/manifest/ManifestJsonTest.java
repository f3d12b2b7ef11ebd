package io.queenlake.format.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queenlake.format.key.DataKey;
import io.queenlake.format.model.Layout;
import io.queenlake.format.model.LostRange;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class ManifestJsonTest {

    private static final String KEY = "queen/tenant=00000000-0000-0000-0000-000000000001/queue=orders/dt=2026-10-03/"
            + "hour=06/w-0000000001-1791007200000000-1791007500000000.jsonl.zst";

    private static Manifest documented() {
        return new Manifest("default", "00000000-0000-0000-0000-000000000001", "orders", 1, 1791007200000000L,
                1791007500000000L, "jsonl", "zstd", Layout.MERGED,
                List.of(ManifestObject.merged(KEY, 207, 3, "5f2a")), 3, 207, 2, 1791007257501942L,
                1791007257501942L, List.of(), "queen-lake/0.1.0 jsonl+zstd", null);
    }

    @Test
    void writesTheDocumentedFieldsInTheDocumentedOrder() {
        byte[] json = ManifestJson.write(documented().withCommittedAt(1791009464741L));
        assertThat(new String(json, StandardCharsets.UTF_8)).isEqualTo("{\"sink\":\"default\","
                + "\"tenant\":\"00000000-0000-0000-0000-000000000001\",\"queue\":\"orders\",\"k\":1,"
                + "\"tStart\":1791007200000000,\"tEnd\":1791007500000000,\"format\":\"jsonl\",\"compression\":\"zstd\","
                + "\"layout\":\"merged\",\"objects\":[{\"key\":\"" + KEY + "\",\"bytes\":207,\"records\":3,"
                + "\"sha256\":\"5f2a\"}],\"records\":3,\"bytes\":207,\"partitions\":2,\"minTs\":1791007257501942,"
                + "\"maxTs\":1791007257501942,\"lost\":[],\"writer\":\"queen-lake/0.1.0 jsonl+zstd\","
                + "\"committedAt\":\"2026-10-03T06:37:44.741000Z\"}");
    }

    @Test
    void perPartitionObjectsAndLostRangesAreWritten() {
        Manifest m = new Manifest("s", "t", "q\u00e8", 2, 10, 20, "parquet", "snappy", Layout.PER_PARTITION,
                List.of(new ManifestObject("k", 5, 2, "ab", new DataKey.PartitionSlice("p/1", 3, 4))), 2, 5, 1, 11, 12,
                List.of(new LostRange("p/1", 0, 2)), "w", 1000L);
        assertThat(new String(ManifestJson.write(m), StandardCharsets.UTF_8)).isEqualTo("{\"sink\":\"s\",\"tenant\":\"t\","
                + "\"queue\":\"q\u00e8\",\"k\":2,\"tStart\":10,\"tEnd\":20,\"format\":\"parquet\",\"compression\":\"snappy\","
                + "\"layout\":\"per-partition\",\"objects\":[{\"key\":\"k\",\"bytes\":5,\"records\":2,\"sha256\":\"ab\","
                + "\"partition\":\"p/1\",\"firstOffset\":3,\"lastOffset\":4}],\"records\":2,\"bytes\":5,\"partitions\":1,"
                + "\"minTs\":11,\"maxTs\":12,\"lost\":[{\"partition\":\"p/1\",\"from\":0,\"to\":2}],\"writer\":\"w\","
                + "\"committedAt\":\"1970-01-01T00:00:00.001000Z\"}");
        assertThat(ManifestJson.read(ManifestJson.write(m))).isEqualTo(m);
    }

    @Test
    void resumePositionsAreWrittenAfterTheLostRangesSortedByNameAndReadBack() {
        Manifest d = documented();
        Manifest m = new Manifest(d.sink(), d.tenant(), d.queue(), d.k(), d.tStart(), d.tEnd(), d.format(),
                d.compression(), d.layout(), d.objects(), d.records(), d.bytes(), d.partitions(), d.minTs(), d.maxTs(),
                d.lost(), List.of(new CheckpointDoc.Position("\u00fc", 8, "0199a6f2"), new CheckpointDoc.Position("a", 3, "")),
                d.writer(), 1791009464741000L);
        String json = new String(ManifestJson.write(m), StandardCharsets.UTF_8);
        assertThat(json).contains("\"lost\":[],\"positions\":[[\"a\",3],[\"\u00fc\",8,\"0199a6f2\"]],\"writer\":");
        assertThat(ManifestJson.read(json.getBytes(StandardCharsets.UTF_8))).isEqualTo(m);
        assertThat(ManifestJson.read(ManifestJson.write(d.withCommittedAt(1L))).positions())
                .as("a manifest without positions (the reference's) reads as none").isEmpty();
    }

    @Test
    void anUnstampedManifestIsNotWritten() {
        assertThatThrownBy(() -> ManifestJson.write(documented()))
                .hasMessage("manifest 1 of queue 'orders' has no committedAt: stamp it with withCommittedAt before writing it.");
    }

    @Test
    void readsTheReferenceManifestIncludingItsPrettyLayoutAndExtraFields() {
        String reference = """
                {"sink":"default","tenant":"00000000-0000-0000-0000-000000000001","queue":"orders","k":1842,
                 "tStart":1788516000000000,"tEnd":1788516300000000,"format":"jsonl","compression":"zstd","layout":"merged",
                 "objects":[{"key":"queen/x.jsonl.zst","bytes":44139012,"records":918442,"sha256":"9f2c"}],
                 "records":918442,"bytes":44139012,"partitions":5183,"minTs":1788516000121004,"maxTs":1788516299904881,
                 "lost":[],"writer":"queen-s3/2.0.0 jsonl+zstd","committedAt":"2026-09-04T10:05:07.412000+00:00",
                 "future":{"x":[1,2]}}
                """;
        Manifest m = ManifestJson.read(reference.getBytes(StandardCharsets.UTF_8));
        assertThat(m.k()).isEqualTo(1842);
        assertThat(m.objects()).containsExactly(ManifestObject.merged("queen/x.jsonl.zst", 44139012, 918442, "9f2c"));
        assertThat(m.writer()).isEqualTo("queen-s3/2.0.0 jsonl+zstd");
        assertThat(m.committedAtMicros()).isEqualTo(1788516307412000L);
    }

    @Test
    void aManifestWithoutTenantBelongsToTheDefaultTenant() {
        String v15 = "{\"sink\":\"default\",\"queue\":\"orders\",\"k\":1,\"tStart\":1,\"tEnd\":2,\"format\":\"jsonl\","
                + "\"compression\":\"gzip\",\"layout\":\"merged\",\"objects\":[],\"records\":0,\"bytes\":0,"
                + "\"partitions\":0,\"minTs\":1,\"maxTs\":1,\"lost\":[],\"writer\":\"queen-s3/1.5.0 jsonl+gzip\"}";
        Manifest m = ManifestJson.read(v15.getBytes(StandardCharsets.UTF_8));
        assertThat(m.tenant()).isEqualTo(ManifestJson.DEFAULT_TENANT);
        assertThat(m.isStamped()).isFalse();
    }

    @Test
    void aBrokenManifestIsOneClearSentence() {
        assertThatThrownBy(() -> ManifestJson.read("{\"sink\":\"default\"}".getBytes(StandardCharsets.UTF_8)))
                .hasMessage("the manifest has no 'objects' field");
        assertThatThrownBy(() -> ManifestJson.read("[1]".getBytes(StandardCharsets.UTF_8)))
                .hasMessage("the manifest is not a JSON object");
    }

    @Test
    void theRedoMatchComparesTheWindowAndTheWriter() {
        Manifest a = documented();
        Manifest otherWriter = new Manifest(a.sink(), a.tenant(), a.queue(), a.k(), a.tStart(), a.tEnd(), a.format(),
                a.compression(), a.layout(), a.objects(), a.records(), a.bytes(), a.partitions(), a.minTs(), a.maxTs(),
                a.lost(), "queen-s3/2.0.0 jsonl+zstd", null);
        assertThat(a.describesSameWindowAs(a.withCommittedAt(5))).isTrue();
        assertThat(a.describesSameWindowAs(otherWriter)).isFalse();
        assertThat(a.namesSameObjectsAs(otherWriter)).isTrue();
    }
}
