package io.queenlake.source.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

class PartitionSplitSerializerTest {

    private final PartitionSplitSerializer serializer = new PartitionSplitSerializer();

    @Test
    void aSplitSurvivesTheRoundTrip() throws IOException {
        PartitionSplit split = PartitionSplit.atOffset(
                "orders", "caffè/\uD83D\uDE00", "0199a6f2-5c1e-7b3a-9d4e-2f6a8c0b1d3e", 42, 1_791_007_200_000_000L);

        PartitionSplit back = serializer.deserialize(serializer.getVersion(), serializer.serialize(split));

        assertThat(back).isEqualTo(split);
        assertThat(back.splitId()).isEqualTo("orders/caff%C3%A8%2F%F0%9F%98%80@0199a6f2-5c1e-7b3a-9d4e-2f6a8c0b1d3e");
    }

    @Test
    void aSplitThatSeeksByTimeSurvivesTheRoundTrip() throws IOException {
        PartitionSplit split = PartitionSplit.atTime("orders", "p", "id-1", 1_791_007_200_000_000L);

        PartitionSplit back = serializer.deserialize(serializer.getVersion(), serializer.serialize(split));

        assertThat(back.needsSeek()).isTrue();
        assertThat(back).isEqualTo(split);
    }

    @Test
    void version1BytesWrittenByTheFirstReleaseStayReadable() throws IOException {
        byte[] v1;
        try (InputStream in = getClass().getResourceAsStream("/partition-split-serializer/v1/split.bin")) {
            v1 = in.readAllBytes();
        }

        PartitionSplit split = serializer.deserialize(1, v1);

        assertThat(split).isEqualTo(PartitionSplit.atOffset("orders", "cust-1", "id-7", 9, Long.MIN_VALUE));
    }

    @Test
    void anUnknownVersionIsRefusedNamingTheVersion() {
        assertThatThrownBy(() -> serializer.deserialize(99, new byte[] {1, 2, 3}))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("version 99");
    }

    @Test
    void aNegativeOffsetOtherThanSeekIsRefused() {
        assertThatThrownBy(() -> PartitionSplit.atOffset("q", "p", "id", -5, Long.MIN_VALUE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("q/p");
    }
}
