package io.queenlake.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queenlake.format.manifest.CheckpointDoc;
import io.queenlake.format.model.LostRange;
import io.queenlake.source.enumerator.start.StartDecision;
import io.queenlake.source.split.PartitionSplit;
import io.queenlake.source.split.QueueCut;
import io.queenlake.source.split.QueueSplit;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class QueenEnumStateSerializerTest {

    private final QueenEnumStateSerializer serializer = new QueenEnumStateSerializer();

    private static final String ODD = "caffè/\uD83D\uDE00 %41@x|y\\z \u0000 e\u0301 \u05E9\u05DC\u05D5\u05DD\n";

    /** The state whose version 2 bytes are kept under src/test/resources/queen-enum-state-serializer/v2. */
    static final QueenEnumState V2_STATE = new QueenEnumState(31, 1_791_007_200_123_456L, 4, List.of(
            new QueenEnumState.QueueEntry("orders", StartDecision.pointer(1_791_007_200_000_000L), List.of(
                    new QueenEnumState.PartitionEntry("cust-1", "0199a6f2-5c1e-7b3a-9d4e-2f6a8c0b1d3e", 41, 0, "", -1),
                    new QueenEnumState.PartitionEntry(ODD, "id-2", -1, 0, "id-1", 17)), true, true),
            new QueenEnumState.QueueEntry("events", StartDecision.latest(1_791_007_100_000_000L), List.of(
                    new QueenEnumState.PartitionEntry("p", "id-3", 9, 5, "", -1)), true, false),
            new QueenEnumState.QueueEntry(ODD, StartDecision.earliest(), List.of(), false, false)),
            List.of(new QueueSplit(ODD, List.of(
                    PartitionSplit.atTime(ODD, ODD, "id-4", 1_791_007_200_000_000L),
                    PartitionSplit.atOffset(ODD, "b", "id-5", 7, Long.MIN_VALUE)),
                    Optional.of(new QueueCut(3, 1_791_007_260_000_000L, 1_791_007_200_000_000L,
                            List.of(new CheckpointDoc.Position(ODD, 6, "id-4")),
                            List.of(new LostRange("b", 2, 6)))))));

    @Test
    void aStateWithQueuesPartitionsAndPendingSplitsSurvivesTheRoundTrip() throws IOException {
        assertThat(serializer.deserialize(serializer.getVersion(), serializer.serialize(V2_STATE))).isEqualTo(V2_STATE);
    }

    @Test
    void aSmallStateSurvivesTheRoundTrip() throws IOException {
        QueenEnumState state = new QueenEnumState(2, 77, 3, List.of(
                new QueenEnumState.QueueEntry("q", StartDecision.earliest(), List.of(
                        new QueenEnumState.PartitionEntry("a", "id", 5, 1, "", -1)), false, false)),
                List.of(new QueueSplit("q", List.of(PartitionSplit.atOffset("q", "a", "id", 0, Long.MIN_VALUE)),
                        Optional.empty())));

        assertThat(serializer.deserialize(serializer.getVersion(), serializer.serialize(state))).isEqualTo(state);
    }

    @Test
    void theEmptyStateSurvivesTheRoundTrip() throws IOException {
        QueenEnumState empty = QueenEnumState.empty();

        assertThat(serializer.deserialize(serializer.getVersion(), serializer.serialize(empty))).isEqualTo(empty);
    }

    @Test
    void version2BytesStayReadable() throws IOException {
        byte[] v2;
        try (InputStream in = getClass().getResourceAsStream("/queen-enum-state-serializer/v2/state.bin")) {
            v2 = in.readAllBytes();
        }

        assertThat(serializer.deserialize(2, v2)).isEqualTo(V2_STATE);
    }

    @Test
    void version1BytesOfTheFirstTopologyAreRefusedWithTheWayOut() throws IOException {
        byte[] v1;
        try (InputStream in = getClass().getResourceAsStream("/queen-enum-state-serializer/v1/state.bin")) {
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
        assertThatThrownBy(() -> serializer.deserialize(7, new byte[] {0}))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("version 7")
                .hasMessageContaining("enumerator state");
    }

    @Test
    void truncatedOrLongerBytesAreRefusedAsCorruptNotMisread() throws IOException {
        byte[] whole = serializer.serialize(V2_STATE);

        assertThatThrownBy(() -> serializer.deserialize(2, Arrays.copyOf(whole, whole.length - 9)))
                .isInstanceOf(IOException.class);
        assertThatThrownBy(() -> serializer.deserialize(2, Arrays.copyOf(whole, whole.length + 3)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("after its end");
    }
}
