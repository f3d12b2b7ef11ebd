package io.queenlake.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queenlake.source.enumerator.start.StartDecision;
import io.queenlake.source.split.PartitionSplit;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class QueenEnumStateSerializerTest {

    private final QueenEnumStateSerializer serializer = new QueenEnumStateSerializer();

    /** The state whose version 1 bytes are kept under src/test/resources/queen-enum-state-serializer/v1. */
    private static final QueenEnumState V1_STATE = new QueenEnumState(31, 1_791_007_200_123_456L, 4, List.of(
            new QueenEnumState.QueueEntry("orders", StartDecision.pointer(1_791_007_200_000_000L), List.of(
                    new QueenEnumState.PartitionEntry("cust-1", "0199a6f2-5c1e-7b3a-9d4e-2f6a8c0b1d3e", 41, 0, true, false),
                    new QueenEnumState.PartitionEntry("caffè/\uD83D\uDE00", "id-2", -1, 0, false, false))),
            new QueenEnumState.QueueEntry("events", StartDecision.latest(1_791_007_100_000_000L), List.of(
                    new QueenEnumState.PartitionEntry("p", "id-3", 9, 5, true, true)))),
            List.of(PartitionSplit.atTime("orders", "caffè/\uD83D\uDE00", "id-2", 1_791_007_200_000_000L)));

    @Test
    void aStateSurvivesTheRoundTrip() throws IOException {
        QueenEnumState state = new QueenEnumState(2, 77, 3, List.of(
                new QueenEnumState.QueueEntry("q", StartDecision.earliest(), List.of(
                        new QueenEnumState.PartitionEntry("a", "id", 5, 1, true, false)))),
                List.of(PartitionSplit.atOffset("q", "b", "id-b", 0, Long.MIN_VALUE)));

        assertThat(serializer.deserialize(serializer.getVersion(), serializer.serialize(state))).isEqualTo(state);
    }

    @Test
    void theEmptyStateSurvivesTheRoundTrip() throws IOException {
        QueenEnumState empty = QueenEnumState.empty();

        assertThat(serializer.deserialize(serializer.getVersion(), serializer.serialize(empty))).isEqualTo(empty);
    }

    @Test
    void version1BytesWrittenByTheFirstReleaseStayReadable() throws IOException {
        byte[] v1;
        try (InputStream in = getClass().getResourceAsStream("/queen-enum-state-serializer/v1/state.bin")) {
            v1 = in.readAllBytes();
        }

        assertThat(serializer.deserialize(1, v1)).isEqualTo(V1_STATE);
    }

    @Test
    void anUnknownVersionIsRefusedNamingTheVersion() {
        assertThatThrownBy(() -> serializer.deserialize(7, new byte[] {0}))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("version 7")
                .hasMessageContaining("enumerator state");
    }

    @Test
    void truncatedBytesAreRefusedAsCorruptNotMisread() throws IOException {
        byte[] whole = serializer.serialize(V1_STATE);

        assertThatThrownBy(() -> serializer.deserialize(1, Arrays.copyOf(whole, whole.length - 9)))
                .isInstanceOf(IOException.class);
    }
}
