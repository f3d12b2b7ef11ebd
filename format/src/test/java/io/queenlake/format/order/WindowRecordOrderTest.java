package io.queenlake.format.order;

import static io.queenlake.format.testutils.Records.rec;
import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.format.model.LogRecord;
import io.queenlake.format.testutils.Arrivals;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class WindowRecordOrderTest {

    @Test
    void partitionsComeInUtf8OrderThenOffsets() {
        List<LogRecord> lake = List.of(
                rec("a", 0, 5, "1"), rec("a", 1, 6, "1"),
                rec("b", 0, 1, "1"),
                rec("\uFF5E", 0, 2, "1"),
                rec("\uD83D\uDE00", 0, 3, "1"), rec("\uD83D\uDE00", 1, 4, "1"));
        for (long seed = 0; seed < 50; seed++) {
            List<LogRecord> arrived = Arrivals.interleave(lake, new Random(seed));
            assertThat(WindowRecordOrder.inLakeOrder(arrived)).as("seed %d", seed).containsExactlyElementsOf(lake);
        }
    }

    @Test
    void theOlderIncarnationOfANameComesFirst() {
        // the partition was deleted and re-created: offsets restart, stamps move on
        LogRecord old1 = rec("p", "old", 7, "t", 100, new byte[0]);
        LogRecord old2 = rec("p", "old", 8, "t", 101, new byte[0]);
        LogRecord new1 = rec("p", "new", 0, "t", 200, new byte[0]);
        LogRecord new2 = rec("p", "new", 1, "t", 201, new byte[0]);
        LogRecord q = rec("q", "x", 0, "t", 50, new byte[0]);
        List<LogRecord> lake = List.of(old1, old2, new1, new2, q);
        for (long seed = 0; seed < 50; seed++) {
            List<LogRecord> arrived = Arrivals.interleave(lake, new Random(seed));
            assertThat(WindowRecordOrder.inLakeOrder(arrived)).as("seed %d", seed).containsExactlyElementsOf(lake);
        }
    }
}
