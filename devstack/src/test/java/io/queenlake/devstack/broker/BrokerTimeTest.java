package io.queenlake.devstack.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Stamps render as {@code YYYY-MM-DDTHH:MM:SS.ffffffZ} exactly as java.time renders them, and parse back. */
class BrokerTimeTest {

    private static final DateTimeFormatter ORACLE =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

    @Test
    void aStampRendersLikeJavaTimeWithSixDigitsAndZ() {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        long[] fixed = {0L, 1L, 999_999L, 951_782_400_000_000L /* 2000-02-29 */, 4_102_444_799_999_999L /* 2099-12-31 */};
        for (long micros : fixed) {
            assertThat(BrokerTime.iso(micros)).isEqualTo(ORACLE.format(toInstant(micros)));
        }
        for (int i = 0; i < 10_000; i++) {
            long micros = (long) (random.nextDouble() * 8_000_000_000_000_000L);
            assertThat(BrokerTime.iso(micros)).as("seed %d micros %d", seed, micros).isEqualTo(ORACLE.format(toInstant(micros)));
            assertThat(BrokerTime.parseMicros(BrokerTime.iso(micros))).isEqualTo(micros);
        }
    }

    @Test
    void kvTimesRenderWithAnOffsetAndBothFormsParse() {
        assertThat(BrokerTime.isoOffset(1_000_001L)).isEqualTo("1970-01-01T00:00:01.000001+00:00");
        assertThat(BrokerTime.parseMicros("1970-01-01T00:00:01.000001+00:00")).isEqualTo(1_000_001L);
        assertThat(BrokerTime.parseMicros("1970-01-01T00:00:01Z")).isEqualTo(1_000_000L);
    }

    private static Instant toInstant(long micros) {
        return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L);
    }
}
