package io.queenlake.source.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queenlake.format.manifest.CheckpointDoc;
import io.queenlake.format.model.LostRange;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class QueueSplitSerializerTest {

    private final QueueSplitSerializer serializer = new QueueSplitSerializer();

    /** Names that need escaping, outside the BMP, with a NUL, combining marks and right-to-left text. */
    private static final String QUEUE = "orders/eu 1 caffè \uD83D\uDE00 %41@x|y\\z \u0000 e\u0301 \u05E9\u05DC\u05D5\u05DD";
    private static final String PARTITION = "cust/\uD834\uDD1E %2F@7\u0000\n\t\"'";

    /**
     * The split whose version 2 bytes are kept under src/test/resources/queue-split-serializer/v2:
     * a seek by time, an offset, and a cut with closed positions and lost ranges.
     */
    static final QueueSplit V2_SPLIT = new QueueSplit(QUEUE, List.of(
            PartitionSplit.atOffset(QUEUE, PARTITION, "0199a6f2-5c1e-7b3a-9d4e-2f6a8c0b1d3e", 42, 1_791_007_200_000_000L),
            PartitionSplit.atTime(QUEUE, "p", "id-2", 1_791_007_200_000_000L),
            PartitionSplit.atOffset(QUEUE, "", "id-3", 0, Long.MIN_VALUE)),
            Optional.of(new QueueCut(17, 1_791_007_260_000_000L, 1_791_007_200_000_000L, List.of(
                    new CheckpointDoc.Position(PARTITION, 40, "0199a6f2-5c1e-7b3a-9d4e-2f6a8c0b1d3e"),
                    new CheckpointDoc.Position("p", 0, "")), List.of(
                    new LostRange(PARTITION, 30, 35),
                    new LostRange("p", 0, 0)))));

    @Test
    void aSplitWithACutOfPositionsAndLostRangesSurvivesTheRoundTrip() throws IOException {
        QueueSplit back = serializer.deserialize(serializer.getVersion(), serializer.serialize(V2_SPLIT));

        assertThat(back).isEqualTo(V2_SPLIT);
        assertThat(back.cut()).get().satisfies(cut -> {
            assertThat(cut.closedPositions()).hasSize(2);
            assertThat(cut.pendingLost()).containsExactly(new LostRange(PARTITION, 30, 35), new LostRange("p", 0, 0));
        });
        assertThat(back.partitions().get(1).needsSeek()).isTrue();
        assertThat(back.splitId()).isEqualTo(QueueSplit.splitId(QUEUE)).doesNotContain("/");
    }

    @Test
    void aSplitWithoutCutOrPartitionsSurvivesTheRoundTrip() throws IOException {
        QueueSplit empty = new QueueSplit("q", List.of(), Optional.empty());
        QueueSplit noCut = new QueueSplit("q", List.of(PartitionSplit.atOffset("q", "a", "id", 3, Long.MIN_VALUE)),
                Optional.empty());
        QueueSplit firstCut = new QueueSplit("q", List.of(),
                Optional.of(new QueueCut(0, Long.MIN_VALUE, Long.MIN_VALUE, List.of(), List.of())));

        for (QueueSplit split : List.of(empty, noCut, firstCut)) {
            assertThat(serializer.deserialize(serializer.getVersion(), serializer.serialize(split))).isEqualTo(split);
        }
    }

    @Test
    void version2BytesStayReadable() throws IOException {
        byte[] v2;
        try (InputStream in = getClass().getResourceAsStream("/queue-split-serializer/v2/split.bin")) {
            v2 = in.readAllBytes();
        }

        assertThat(serializer.deserialize(2, v2)).isEqualTo(V2_SPLIT);
    }

    @Test
    void version1BytesOfTheFirstTopologyAreRefusedWithTheWayOut() throws IOException {
        byte[] v1;
        try (InputStream in = getClass().getResourceAsStream("/partition-split-serializer/v1/split.bin")) {
            v1 = in.readAllBytes();
        }

        assertThatThrownBy(() -> serializer.deserialize(1, v1))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("first topology")
                .hasMessageContaining("start the job without state")
                .hasMessageContaining("commit pointer");
    }

    @Test
    void anUnknownVersionIsRefusedNamingTheVersion() {
        assertThatThrownBy(() -> serializer.deserialize(99, new byte[] {1, 2, 3}))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("version 99");
    }

    @Test
    void truncatedBytesAreRefusedNotMisread() throws IOException {
        byte[] whole = serializer.serialize(V2_SPLIT);

        assertThatThrownBy(() -> serializer.deserialize(2, Arrays.copyOf(whole, whole.length - 5)))
                .isInstanceOf(IOException.class);
    }

    @Test
    void aSplitHoldsOnlyItsOwnQueuesPartitions() {
        assertThatThrownBy(() -> new QueueSplit("q", List.of(PartitionSplit.atOffset("other", "a", "id", 0, Long.MIN_VALUE)),
                Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'q'");
    }
}
