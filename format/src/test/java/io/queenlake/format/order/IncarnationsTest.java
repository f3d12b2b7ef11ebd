package io.queenlake.format.order;

import static io.queenlake.format.testutils.Records.rec;
import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.format.model.LogRecord;
import io.queenlake.format.order.OrderedRecords.PartitionSpan;
import io.queenlake.format.testutils.Arrivals;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class IncarnationsTest {

    private static final byte[] NONE = new byte[0];
    // U+FF5E sorts before U+1F600 in UTF-8 and after it in UTF-16 (Java's String.compareTo)
    private static final String TILDE = "\uFF5E";
    private static final String GRIN = "\uD83D\uDE00";

    /**
     * One window with every rule at once, in the order written by hand: "a" < "p" < U+FF5E < U+1F600
     * by UTF-8 bytes; "p" was re-created (its old incarnation first, though its id sorts last), and
     * U+1F600 has two incarnations whose first stamps tie, so their ids decide ("i1" < "i2").
     */
    private static final List<LogRecord> LAKE = List.of(
            rec("a", "a1", 0, "t", 120, NONE),
            rec("a", "a1", 1, "t", 121, NONE),
            rec("p", "zz-old", 41, "t", 100, NONE),
            rec("p", "zz-old", 42, "t", 105, NONE),
            rec("p", "aa-new", 0, "t", 110, NONE),
            rec("p", "aa-new", 1, "t", 111, NONE),
            rec(TILDE, "t1", 3, "t", 130, NONE),
            rec(GRIN, "i1", 9, "t", 140, NONE),
            rec(GRIN, "i1", 10, "t", 150, NONE),
            rec(GRIN, "i2", 0, "t", 140, NONE),
            rec(GRIN, "i2", 1, "t", 141, NONE));

    @Test
    void incarnationsAndUtf8NamesTogetherComeInTheHandWrittenOrder() {
        for (long seed = 0; seed < 50; seed++) {
            List<LogRecord> arrived = Arrivals.interleave(LAKE, new Random(seed));
            OrderedRecords ordered = Incarnations.of(arrived).inLakeOrder();
            assertThat(ordered.records()).as("seed %d", seed).containsExactlyElementsOf(LAKE);
            assertThat(ordered.partitions()).as("seed %d", seed).containsExactly(
                    new PartitionSpan("a", 0, 2), new PartitionSpan("p", 2, 6),
                    new PartitionSpan(TILDE, 6, 7), new PartitionSpan(GRIN, 7, 11));
            assertThat(ordered.minTs()).isEqualTo(100);
            assertThat(ordered.maxTs()).isEqualTo(150);
        }
    }

    @Test
    void recordsOfOneIncarnationOutOfOffsetOrderAreSortedAndEqualOffsetsKeepArrivalOrder() {
        LogRecord first = rec("p", "x", 5, "first", 10, NONE);
        LogRecord second = rec("p", "x", 5, "second", 10, NONE);
        List<LogRecord> arrived = List.of(rec("p", "x", 7, "t", 12, NONE), first, rec("p", "x", 6, "t", 11, NONE),
                second);
        assertThat(Incarnations.of(arrived).inLakeOrder().records()).containsExactly(
                first, second, arrived.get(2), arrived.get(0));
    }

    @Test
    void theFirstStampOfAnIncarnationIsThatOfItsLowestOffsetNotItsLowestStamp() {
        // offsets 3 then 2 arrive; 2 carries the later stamp, and it is the one that dates "old"
        List<LogRecord> arrived = List.of(
                rec("p", "old", 3, "t", 100, NONE), rec("p", "old", 2, "t", 300, NONE),
                rec("p", "new", 0, "t", 200, NONE));
        List<LogRecord> ordered = Incarnations.of(arrived).inLakeOrder().records();
        assertThat(ordered).extracting(LogRecord::partitionId).containsExactly("new", "old", "old");
        assertThat(ordered).extracting(LogRecord::offset).containsExactly(0L, 2L, 3L);
    }

    @Test
    void eachIncarnationKnowsItsNewestRecordAndFirstStamp() {
        LogRecord newestOld = rec("p", "old", 8, "t", 105, NONE);
        LogRecord newestNew = rec("p", "new", 1, "t", 111, NONE);
        List<LogRecord> arrived = new ArrayList<>(List.of(
                rec("p", "old", 7, "t", 105, NONE), newestOld, rec("p", "old", 6, "t", 101, NONE),
                rec("p", "new", 0, "t", 110, NONE), newestNew));
        assertThat(Incarnations.of(arrived).all()).containsExactly(
                new Incarnation("p", "old", 3, 101, newestOld), new Incarnation("p", "new", 2, 110, newestNew));
        Collections.reverse(arrived);
        assertThat(Incarnations.of(arrived).all()).containsExactly(
                new Incarnation("p", "new", 2, 110, newestNew), new Incarnation("p", "old", 3, 101, newestOld));
    }
}
