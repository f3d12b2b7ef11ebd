package io.queenlake.connector.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queenlake.format.model.Align;
import io.queenlake.format.model.WindowBounds;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.OptionalLong;
import java.util.Random;
import org.junit.jupiter.api.Test;

class WindowRulesTest {

    private static final long SEED = 20261003L;
    private static final long[] HOUR_DIVISORS = {100, 1_000, 60_000, 300_000, 600_000, 900_000, 3_600_000};

    /** The slow oracle: java.time finds the UTC hour, then whole windows are walked from it. */
    private static WindowBounds oracle(long tsMicros, long sizeMs) {
        Instant at = Instant.EPOCH.plus(tsMicros, ChronoUnit.MICROS);
        long startMs = at.truncatedTo(ChronoUnit.HOURS).toEpochMilli();
        while (startMs + sizeMs <= at.toEpochMilli()) {
            startMs += sizeMs;
        }
        return new WindowBounds(startMs * 1000, (startMs + sizeMs) * 1000);
    }

    @Test
    void aRecordLandsInTheGridWindowTheOracleFinds() {
        Random random = new Random(SEED);
        for (int i = 0; i < 20_000; i++) {
            long size = HOUR_DIVISORS[random.nextInt(HOUR_DIVISORS.length)];
            long ts = 1_700_000_000_000_000L + (long) (random.nextDouble() * 400L * 24 * 3_600_000_000L);
            WindowBounds bounds = WindowRules.bounds(ts, size, Align.HOUR);
            assertThat(bounds).as("seed %d, ts %d, size %d", SEED, ts, size).isEqualTo(oracle(ts, size));
            assertThat(bounds.contains(ts)).as("seed %d, ts %d", SEED, ts).isTrue();
        }
    }

    @Test
    void aWindowNeverCrossesItsHour() {
        Random random = new Random(SEED + 1);
        for (int i = 0; i < 20_000; i++) {
            long size = HOUR_DIVISORS[random.nextInt(HOUR_DIVISORS.length)];
            long ts = 1_700_000_000_000_000L + (long) (random.nextDouble() * 30L * 24 * 3_600_000_000L);
            WindowBounds bounds = WindowRules.bounds(ts, size, Align.HOUR);
            ZonedDateTime first = Instant.EPOCH.plus(bounds.tStart(), ChronoUnit.MICROS).atZone(ZoneOffset.UTC);
            ZonedDateTime last = Instant.EPOCH.plus(bounds.tEnd() - 1, ChronoUnit.MICROS).atZone(ZoneOffset.UTC);
            assertThat(last.truncatedTo(ChronoUnit.HOURS))
                    .as("seed %d, window %s", SEED + 1, bounds)
                    .isEqualTo(first.truncatedTo(ChronoUnit.HOURS));
        }
    }

    @Test
    void aDayAlignedWindowNeverCrossesItsDay() {
        Random random = new Random(SEED + 2);
        long[] dayDivisors = {3_600_000, 7_200_000, 21_600_000, 43_200_000, 86_400_000, 5_400_000};
        for (int i = 0; i < 5_000; i++) {
            long size = dayDivisors[random.nextInt(dayDivisors.length)];
            long ts = 1_700_000_000_000_000L + (long) (random.nextDouble() * 900L * 24 * 3_600_000_000L);
            WindowBounds bounds = WindowRules.bounds(ts, size, Align.DAY);
            ZonedDateTime first = Instant.EPOCH.plus(bounds.tStart(), ChronoUnit.MICROS).atZone(ZoneOffset.UTC);
            ZonedDateTime last = Instant.EPOCH.plus(bounds.tEnd() - 1, ChronoUnit.MICROS).atZone(ZoneOffset.UTC);
            assertThat(last.toLocalDate()).as("seed %d, window %s", SEED + 2, bounds).isEqualTo(first.toLocalDate());
        }
    }

    @Test
    void boundsAreWholeMillisecondsAndHoldExactlyTheirMicroseconds() {
        long size = 300_000;
        long start = 1_791_007_200_000_000L;
        assertThat(WindowRules.bounds(start, size, Align.HOUR)).isEqualTo(new WindowBounds(start, start + 300_000_000L));
        assertThat(WindowRules.bounds(start + 299_999_999L, size, Align.HOUR).tStart()).isEqualTo(start);
        assertThat(WindowRules.bounds(start + 300_000_000L, size, Align.HOUR).tStart()).isEqualTo(start + 300_000_000L);
        assertThat(WindowRules.bounds(start - 1, size, Align.HOUR).tEnd()).isEqualTo(start);
    }

    @Test
    void aWindowsFlinkTimestampIsItsLastMillisecond() {
        WindowBounds window = new WindowBounds(1_791_007_200_000_000L, 1_791_007_500_000_000L);
        assertThat(WindowRules.lastMillis(window)).isEqualTo(1_791_007_499_999L);
    }

    @Test
    void aWindowStartingOffTheGridHasItsLastMillisecondToo() {
        WindowBounds window = new WindowBounds(1_000_000_123L, 1_000_500_456L);
        assertThat(WindowRules.lastMillis(window)).isEqualTo(1_000_500L);
    }

    @Test
    void aSizeThatDoesNotDivideTheHourIsRefusedNamingTheOptionsFlinkKeys() {
        assertThatThrownBy(() -> WindowRules.validate(420_000, Align.HOUR))
                .hasMessageStartingWith("queen.s3.max-window-ms=420000 does not divide one hour")
                .hasMessageContaining("with queen.s3.align=hour");
        assertThatThrownBy(() -> WindowRules.validate(7 * 3_600_000L, Align.DAY))
                .hasMessageStartingWith("queen.s3.max-window-ms=25200000 does not divide one day");
        assertThatThrownBy(() -> WindowRules.validate(99, Align.NONE))
                .hasMessageStartingWith("queen.s3.max-window-ms=99 is outside 100..86400000");
        assertThatThrownBy(() -> WindowRules.validate(86_400_001L, Align.NONE))
                .hasMessageContaining("queen.s3.max-window-ms");
    }

    @Test
    void anApplicationNamesTheOptionsOfTheRuleItsOwnWay() {
        assertThat(WindowRules.problem(420_000, Align.HOUR, option -> option.key().toUpperCase()))
                .hasValueSatisfying(problem -> assertThat(problem)
                        .startsWith("QUEEN.S3.MAX-WINDOW-MS=420000 does not divide one hour")
                        .contains("with QUEEN.S3.ALIGN=hour"));
        assertThat(WindowRules.problem(600_000, Align.HOUR, option -> "unused")).isEmpty();
    }

    @Test
    void alignNoneAcceptsAnySizeInRange() {
        WindowRules.validate(420_000, Align.NONE);
        assertThat(WindowRules.bounds(420_000_000L * 3 + 5, 420_000, Align.NONE))
                .isEqualTo(new WindowBounds(420_000_000L * 3, 420_000_000L * 4));
    }

    private static final long HOUR = 3_600_000_000L;
    /** 2026-10-03T06:00Z: an hour boundary six hours into its day. */
    private static final long SIX_AM = 1_791_007_200_000_000L;

    @Test
    void aQueuesFirstWindowStartsAtTheAlignmentFloorOfItsFirstRecord() {
        long first = SIX_AM + 37 * 60_000_000L + 123;
        assertThat(WindowRules.tiledStart(OptionalLong.empty(), first, Align.HOUR)).isEqualTo(SIX_AM);
        assertThat(WindowRules.tiledStart(OptionalLong.empty(), first, Align.DAY)).isEqualTo(SIX_AM - 6 * HOUR);
        assertThat(WindowRules.tiledStart(OptionalLong.empty(), first, Align.NONE)).isEqualTo(first);
    }

    @Test
    void aWindowStartsWhereTheWindowBeforeItEndedAcrossEmptyGridCells() {
        long previousEnd = SIX_AM + 5 * 60_000_000L;
        long first = SIX_AM + 40 * 60_000_000L;
        for (Align align : Align.values()) {
            assertThat(WindowRules.tiledStart(OptionalLong.of(previousEnd), first, align)).as("%s", align)
                    .isEqualTo(previousEnd);
        }
    }

    @Test
    void aWindowStartsAtTheBoundaryThatLiesBetweenThePreviousEndAndItsFirstRecord() {
        long previousEnd = SIX_AM - 5 * 60_000_000L;
        long first = SIX_AM + 20 * 60_000_000L;
        assertThat(WindowRules.tiledStart(OptionalLong.of(previousEnd), first, Align.HOUR)).isEqualTo(SIX_AM);
        assertThat(WindowRules.tiledStart(OptionalLong.of(previousEnd), first, Align.DAY)).isEqualTo(previousEnd);
        assertThat(WindowRules.tiledStart(OptionalLong.of(previousEnd), first, Align.NONE)).isEqualTo(previousEnd);
    }

    @Test
    void aTiledWindowNeverCrossesItsHourWhateverThePreviousEnd() {
        Random random = new Random(SEED + 3);
        for (int i = 0; i < 20_000; i++) {
            long size = HOUR_DIVISORS[random.nextInt(HOUR_DIVISORS.length)];
            long first = 1_700_000_000_000_000L + (long) (random.nextDouble() * 30L * 24 * HOUR);
            long previousEnd = first - 1 - (long) (random.nextDouble() * 3 * HOUR);
            long start = WindowRules.tiledStart(OptionalLong.of(previousEnd), first, Align.HOUR);
            long end = WindowRules.bounds(first, size, Align.HOUR).tEnd();
            assertThat(start).as("seed %d, first %d, previous end %d", SEED + 3, first, previousEnd)
                    .isLessThanOrEqualTo(first)
                    .isGreaterThanOrEqualTo(previousEnd)
                    .isEqualTo(Math.max(previousEnd, first - Math.floorMod(first, HOUR)));
            assertThat(Math.floorDiv(end - 1, HOUR)).isEqualTo(Math.floorDiv(start, HOUR));
        }
    }
}
