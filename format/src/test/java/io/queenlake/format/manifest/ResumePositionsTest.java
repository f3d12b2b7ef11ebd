package io.queenlake.format.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.queenlake.format.manifest.CheckpointDoc.Position;
import io.queenlake.format.model.LogRecord;
import io.queenlake.format.order.Incarnations;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResumePositionsTest {

    private static LogRecord record(String partition, String id, long offset, long ts) {
        return new LogRecord(partition, id, offset, "", ts, new byte[] {'1'});
    }

    @Test
    void aPartitionResumesAfterItsNewestRecord() {
        var positions = ResumePositions.after(List.of(
                record("a", "A1", 4, 10), record("a", "A1", 2, 5), record("b", "B1", 0, 7), record("a", "A1", 3, 10)));
        assertThat(positions).containsOnlyKeys("a", "b");
        assertThat(positions.get("a")).isEqualTo(new Position("a", 5, "A1"));
        assertThat(positions.get("b")).isEqualTo(new Position("b", 1, "B1"));
    }

    @Test
    void aReplacedIncarnationResumesInTheNewOneEvenAtLowerOffsets() {
        var positions = ResumePositions.after(List.of(record("a", "old", 900, 10), record("a", "new", 2, 20)));
        assertThat(positions.get("a")).isEqualTo(new Position("a", 3, "new"));
    }

    @Test
    void incarnationsInterleavedOnArrivalStillResumeInTheNewestOne() {
        // the new incarnation arrives first and the runs of both are broken up by another partition
        var positions = ResumePositions.after(List.of(
                record("a", "new", 2, 20), record("a", "old", 900, 10), record("b", "B1", 0, 15),
                record("a", "new", 3, 21), record("a", "old", 901, 11), record("b", "B1", 1, 16)));
        assertThat(positions).containsOnly(
                entry("a", new Position("a", 4, "new")), entry("b", new Position("b", 2, "B1")));
    }

    @Test
    void aWindowInLakeOrderGivesTheSamePositionsSortedByName() {
        List<LogRecord> arrival = List.of(
                record("b", "B1", 0, 15), record("a", "new", 2, 20), record("a", "old", 900, 10),
                record("a", "new", 3, 21), record("b", "B1", 1, 16), record("a", "old", 901, 11));
        Map<String, Position> unordered = ResumePositions.after(arrival);
        List<Position> ordered = ResumePositions.after(Incarnations.of(arrival).inLakeOrder());
        assertThat(ordered).containsExactly(unordered.get("a"), unordered.get("b"));
    }
}
