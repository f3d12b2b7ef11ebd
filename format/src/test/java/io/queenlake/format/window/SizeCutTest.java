package io.queenlake.format.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queenlake.format.model.LogRecord;
import io.queenlake.format.testutils.Arrivals;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class SizeCutTest {

    private static final long T0 = 1_000_000L;
    private static final long T1 = 2_000_000L;

    private static LogRecord rec(String partition, long offset, long ts, int payloadBytes) {
        return new LogRecord(partition, "", offset, "", ts, new byte[payloadBytes]);
    }

    /** A window of a few partitions, many records sharing stamps, random payload sizes. */
    private static List<LogRecord> window(Random random) {
        List<LogRecord> out = new ArrayList<>();
        for (int p = 0; p < 4; p++) {
            long ts = T0 + random.nextInt(50);
            for (int o = 0; o < 60; o++) {
                out.add(rec("p" + p, o, ts, random.nextInt(120)));
                if (random.nextInt(3) > 0) {
                    ts += 1 + random.nextInt(40); // two in three move on, one in three shares the stamp
                }
            }
        }
        return out;
    }

    /** The rule read literally, one distinct stamp at a time, by re-summing the open slice each time. */
    private static List<Long> oracle(List<LogRecord> records, long target) {
        TreeSet<Long> stamps = new TreeSet<>();
        records.forEach(r -> stamps.add(r.tsMicros()));
        List<Long> cuts = new ArrayList<>();
        long sliceStart = Long.MIN_VALUE;
        for (long t : stamps) {
            long from = sliceStart;
            long weightBefore = records.stream()
                    .filter(r -> r.tsMicros() >= from && r.tsMicros() < t)
                    .mapToLong(LogRecord::weight).sum();
            if (weightBefore >= target) {
                cuts.add(t);
                sliceStart = t;
            }
        }
        return cuts;
    }

    @Test
    void cutsMatchTheSlowOracleWhateverTheArrivalOrder() {
        for (long seed = 0; seed < 40; seed++) {
            Random random = new Random(seed);
            List<LogRecord> records = window(random);
            long target = 200 + random.nextInt(3000);
            List<Long> expected = oracle(records, target);
            List<LogRecord> arrived = Arrivals.interleave(records, random);
            long[] cuts = SizeCut.cutStamps(arrived, target);
            assertThat(cuts).as("seed %d target %d", seed, target)
                    .containsExactly(expected.stream().mapToLong(Long::longValue).toArray());
        }
    }

    @Test
    void equalStampsAreNeverSplitAndEverySliceButTheLastReachedTheTarget() {
        for (long seed = 0; seed < 40; seed++) {
            Random random = new Random(seed);
            List<LogRecord> records = window(random);
            long target = 100 + random.nextInt(2000);
            List<SizeCut.Slice> slices = SizeCut.cut(T0, T1, Arrivals.interleave(records, random), target);
            assertThat(slices.get(0).tStart()).isEqualTo(T0);
            assertThat(slices.get(slices.size() - 1).tEnd()).isEqualTo(T1);
            int total = 0;
            for (int i = 0; i < slices.size(); i++) {
                SizeCut.Slice s = slices.get(i);
                total += s.records().size();
                assertThat(s.records()).as("seed %d slice %d is never empty", seed, i).isNotEmpty();
                assertThat(s.records()).allMatch(r -> s.tStart() <= r.tsMicros() && r.tsMicros() < s.tEnd());
                if (i > 0) {
                    assertThat(slices.get(i - 1).tEnd()).isEqualTo(s.tStart());
                    assertThat(s.records()).as("seed %d: a slice starts at a record stamp", seed)
                            .anyMatch(r -> r.tsMicros() == s.tStart());
                }
                long weight = s.records().stream().mapToLong(LogRecord::weight).sum();
                if (i < slices.size() - 1) {
                    assertThat(weight).as("seed %d slice %d", seed, i).isGreaterThanOrEqualTo(target);
                    long lastTs = s.records().stream().mapToLong(LogRecord::tsMicros).max().orElseThrow();
                    long withoutLastStamp = s.records().stream().filter(r -> r.tsMicros() < lastTs)
                            .mapToLong(LogRecord::weight).sum();
                    assertThat(withoutLastStamp).as("seed %d slice %d cut at the first stamp possible", seed, i)
                            .isLessThan(target);
                }
            }
            assertThat(total).isEqualTo(records.size());
        }
    }

    @Test
    void aWindowUnderTheTargetStaysWhole() {
        List<LogRecord> records = List.of(rec("a", 0, T0, 10), rec("a", 1, T0 + 5, 10));
        assertThat(SizeCut.cutStamps(records, 21)).isEmpty();
        assertThat(SizeCut.cut(T0, T1, records, 21)).containsExactly(new SizeCut.Slice(T0, T1, records));
    }

    @Test
    void oneHugeStampGroupIsNeverSplit() {
        List<LogRecord> records = List.of(rec("a", 0, T0, 100), rec("b", 0, T0, 100), rec("c", 0, T0, 100),
                rec("a", 1, T0 + 1, 1));
        assertThat(SizeCut.cutStamps(records, 10)).containsExactly(T0 + 1);
    }

    @Test
    void theCutCountsWeightsNotRecords() {
        // an empty payload still weighs one byte
        List<LogRecord> records = List.of(rec("a", 0, T0, 0), rec("a", 1, T0 + 1, 0), rec("a", 2, T0 + 2, 0));
        assertThat(SizeCut.cutStamps(records, 2)).containsExactly(T0 + 2);
    }

    @Test
    void recordsOutsideTheWindowAreRefused() {
        assertThatThrownBy(() -> SizeCut.cut(T0, T1, List.of(rec("a", 0, T1, 1)), 10))
                .hasMessageContaining("outside the window");
    }
}
