package io.queenlake.format.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.luben.zstd.Zstd;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class CheckpointDocTest {

    @Test
    void writesCompactJsonWithPositionsSortedByUtf8Name() {
        CheckpointDoc doc = new CheckpointDoc(3, 1788480000000000L, List.of(
                new CheckpointDoc.Position("b", 9, ""),
                new CheckpointDoc.Position("\uD83D\uDE00", 1, "id-e"),
                new CheckpointDoc.Position("\uFF5E", 2, ""),
                new CheckpointDoc.Position("a", 4, "6f1c")));
        assertThat(new String(doc.toJson(), StandardCharsets.UTF_8)).isEqualTo("{\"k\":3,\"tEnd\":1788480000000000,"
                + "\"positions\":[[\"a\",4,\"6f1c\"],[\"b\",9],[\"\uFF5E\",2],[\"\uD83D\uDE00\",1,\"id-e\"]]}");
    }

    @Test
    void theObjectIsOneZstdFrameOfTheJson() {
        CheckpointDoc doc = new CheckpointDoc(3, 5, List.of(new CheckpointDoc.Position("a", 4, "x")));
        byte[] body = doc.toObjectBytes();
        assertThat(Zstd.findFrameCompressedSize(body)).isEqualTo(body.length);
        assertThat(Zstd.decompress(body, 1000)).isEqualTo(doc.toJson());
        assertThat(CheckpointDoc.fromObjectBytes(body)).isEqualTo(doc);
    }

    @Test
    void theObjectDependsOnThePositionsOnlyNotTheirOrder() {
        List<CheckpointDoc.Position> positions = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            positions.add(new CheckpointDoc.Position("p-" + i, i, i % 2 == 0 ? "id-" + i : ""));
        }
        byte[] first = new CheckpointDoc(7, 1, positions).toObjectBytes();
        long seed = 11;
        Collections.shuffle(positions, new Random(seed));
        assertThat(new CheckpointDoc(7, 1, positions).toObjectBytes()).as("seed %d", seed).isEqualTo(first);
        assertThat(CheckpointDoc.fromObjectBytes(first).positions()).hasSize(1000);
    }

    @Test
    void readsTheOldTwoElementFormAndIgnoresExtraElements() {
        CheckpointDoc doc = CheckpointDoc.fromJson(("{\"k\":1,\"tEnd\":2,\"positions\":"
                + "[[\"a\",4],[\"b\",9,\"id\",\"extra\",5]]}").getBytes(StandardCharsets.UTF_8));
        assertThat(doc.positions()).containsExactly(new CheckpointDoc.Position("a", 4, ""),
                new CheckpointDoc.Position("b", 9, "id"));
    }

    @Test
    void aCorruptObjectIsRefusedNotMisread() {
        assertThatThrownBy(() -> CheckpointDoc.fromObjectBytes(new byte[] {1, 2, 3, 4, 5}))
                .isInstanceOf(IllegalArgumentException.class);
        byte[] notJson = Zstd.compress("[1,2]".getBytes(StandardCharsets.UTF_8), 3);
        assertThatThrownBy(() -> CheckpointDoc.fromObjectBytes(notJson)).hasMessage("the checkpoint is not a JSON object");
        byte[] badPosition = Zstd.compress("{\"k\":1,\"tEnd\":2,\"positions\":[[4,\"a\"]]}"
                .getBytes(StandardCharsets.UTF_8), 3);
        assertThatThrownBy(() -> CheckpointDoc.fromObjectBytes(badPosition))
                .hasMessageStartingWith("the checkpoint has a position that is not [name, offset]");
    }
}
