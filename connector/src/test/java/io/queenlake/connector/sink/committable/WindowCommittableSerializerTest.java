package io.queenlake.connector.sink.committable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queenlake.format.key.DataKey;
import io.queenlake.format.manifest.CheckpointDoc;
import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.manifest.ManifestObject;
import io.queenlake.format.model.Layout;
import io.queenlake.format.model.LostRange;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class WindowCommittableSerializerTest {

    /** Written once by serializer version 1 and committed: every later version must still read it. */
    static final String V1_RESOURCE = "/window-committable-serializer/v1/per-partition-with-checkpoint.bin";
    /** Written once by serializer version 2 (the manifest's resume positions) and committed. */
    static final String V2_RESOURCE = "/window-committable-serializer/v2/per-partition-with-positions.bin";

    private final WindowCommittableSerializer serializer = new WindowCommittableSerializer();

    /** A per-partition window of queue "caffè/eu" with a lost range and a checkpoint document. */
    static WindowCommittable v1Window() {
        String dir = "queen/tenant=00000000-0000-0000-0000-000000000001/queue=caff%C3%A8%2Feu/dt=2026-10-03/hour=06/";
        String a = dir + "w-0000000007-1791007200000000-1791007500000000-p-a-000000000003-000000000004.jsonl.gz";
        String b = dir + "w-0000000007-1791007200000000-1791007500000000-p-%C3%BC-000000000010-000000000010.jsonl.gz";
        Manifest manifest = new Manifest("default", "00000000-0000-0000-0000-000000000001", "caffè/eu", 7,
                1_791_007_200_000_000L, 1_791_007_500_000_000L, "jsonl", "gzip", Layout.PER_PARTITION,
                List.of(new ManifestObject(a, 120, 2, "5f2a".repeat(16), new DataKey.PartitionSlice("a", 3, 4)),
                        new ManifestObject(b, 80, 1, "0b1c".repeat(16), new DataKey.PartitionSlice("ü", 10, 10))),
                3, 200, 2, 1_791_007_257_501_942L, 1_791_007_299_000_001L, List.of(new LostRange("a", 0, 2)),
                "queen-lake/0.1.0 jsonl+gzip", null);
        List<StagedObject> staged = List.of(new StagedObject(a, 1, new byte[] {1, 2, 3, 4}),
                new StagedObject(b, 2, new byte[] {9, 8, 7}));
        CheckpointDoc checkpoint = new CheckpointDoc(7, 1_791_007_500_000_000L,
                List.of(new CheckpointDoc.Position("a", 5, "0199a6f2"), new CheckpointDoc.Position("ü", 11, "")));
        return new WindowCommittable(manifest, staged, Optional.of(checkpoint));
    }

    /** The same window with the resume positions its manifest carries since version 2. */
    static WindowCommittable v2Window() {
        WindowCommittable v1 = v1Window();
        Manifest m = v1.manifest();
        Manifest withPositions = new Manifest(m.sink(), m.tenant(), m.queue(), m.k(), m.tStart(), m.tEnd(), m.format(),
                m.compression(), m.layout(), m.objects(), m.records(), m.bytes(), m.partitions(), m.minTs(), m.maxTs(),
                m.lost(), List.of(new CheckpointDoc.Position("ü", 11, "0199a6f3"), new CheckpointDoc.Position("a", 5, "")),
                m.writer(), null);
        return new WindowCommittable(withPositions, v1.staged(), v1.checkpoint());
    }

    @Test
    void aCommittableSurvivesARoundTripWithEveryPart() throws IOException {
        WindowCommittable window = v2Window();

        WindowCommittable back = serializer.deserialize(serializer.getVersion(), serializer.serialize(window));

        assertThat(back).isEqualTo(window);
        assertThat(back.staged().get(1).recoverable()).containsExactly(9, 8, 7);
        assertThat(back.checkpoint().get().positions()).hasSize(2);
        assertThat(back.manifest().positions()).extracting(CheckpointDoc.Position::partition).containsExactly("a", "ü");
    }

    @Test
    void aCommittableWithoutCheckpointOrLossRoundTrips() throws IOException {
        WindowCommittable full = v1Window();
        Manifest m = full.manifest();
        Manifest bare = new Manifest(m.sink(), m.tenant(), m.queue(), m.k(), m.tStart(), m.tEnd(), m.format(),
                m.compression(), m.layout(), m.objects(), m.records(), m.bytes(), m.partitions(), m.minTs(), m.maxTs(),
                List.of(), m.writer(), null);
        WindowCommittable window = new WindowCommittable(bare, full.staged(), Optional.empty());

        assertThat(serializer.deserialize(serializer.getVersion(), serializer.serialize(window))).isEqualTo(window);
    }

    @Test
    void theCommittedVersionOneBytesStillReadBackToTheSameCommittable() throws IOException {
        byte[] v1 = readResource(V1_RESOURCE);

        assertThat(serializer.deserialize(1, v1)).isEqualTo(v1Window());
    }

    @Test
    void versionOneStillWritesTheCommittedBytes() throws IOException {
        assertThat(WindowCommittableSerializer.serializeV1(v1Window())).isEqualTo(readResource(V1_RESOURCE));
    }

    @Test
    void theCommittedVersionTwoBytesReadBackWithTheManifestsPositions() throws IOException {
        assertThat(serializer.deserialize(2, readResource(V2_RESOURCE))).isEqualTo(v2Window());
        assertThat(serializer.serialize(v2Window())).isEqualTo(readResource(V2_RESOURCE));
    }

    @Test
    void anUnknownVersionIsRefusedWithItsNumber() {
        assertThatThrownBy(() -> serializer.deserialize(3, new byte[] {0}))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("serializer version 3");
    }

    @Test
    void bytesThatAreNotACommittableAreRefused() throws IOException {
        byte[] v1 = serializer.serialize(v1Window());
        v1[0] = 0;

        assertThatThrownBy(() -> serializer.deserialize(serializer.getVersion(), v1))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("magic number");
        assertThatThrownBy(() -> serializer.deserialize(serializer.getVersion(),
                java.util.Arrays.copyOf(serializer.serialize(v1Window()), 40)))
                .isInstanceOf(IOException.class);
    }

    private static byte[] readResource(String name) throws IOException {
        try (InputStream in = WindowCommittableSerializerTest.class.getResourceAsStream(name)) {
            assertThat(in).as("resource %s", name).isNotNull();
            return in.readAllBytes();
        }
    }
}
