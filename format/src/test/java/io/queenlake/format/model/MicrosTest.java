package io.queenlake.format.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Random;
import org.junit.jupiter.api.Test;

class MicrosTest {

    @Test
    void rendersWithSixDigitsAndZ() {
        assertThat(Micros.render(1_791_009_457_501_942L)).isEqualTo("2026-10-03T06:37:37.501942Z");
        assertThat(Micros.render(0)).isEqualTo("1970-01-01T00:00:00.000000Z");
        assertThat(Micros.render(951_782_400_000_000L)).isEqualTo("2000-02-29T00:00:00.000000Z");
        assertThat(Micros.render(253_402_300_799_999_999L)).isEqualTo("9999-12-31T23:59:59.999999Z");
    }

    @Test
    void rendersWhatJavaTimeRendersForRandomStamps() {
        long seed = 20261003L;
        Random random = new Random(seed);
        for (int i = 0; i < 10_000; i++) {
            long micros = (long) (random.nextDouble() * 253_402_300_799_999_999L);
            Instant instant = Instant.EPOCH.plus(micros, ChronoUnit.MICROS);
            String viaJavaTime = java.time.format.DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'")
                    .withZone(java.time.ZoneOffset.UTC).format(instant);
            assertThat(Micros.render(micros)).as("seed %d stamp %d", seed, micros)
                    .isEqualTo(viaJavaTime);
        }
    }

    @Test
    void parsesZAndPlusZeroAndShortFractions() {
        assertThat(Micros.parse("2026-10-03T06:40:00.000000Z")).isEqualTo(1_791_009_600_000_000L);
        assertThat(Micros.parse("2026-10-03T06:40:00.000000+00:00")).isEqualTo(1_791_009_600_000_000L);
        assertThat(Micros.parse("2026-10-03T06:40:00.5Z")).isEqualTo(1_791_009_600_500_000L);
        assertThat(Micros.parse("2026-10-03T06:40:00.123Z")).isEqualTo(1_791_009_600_123_000L);
        assertThat(Micros.parse("2026-10-03T06:40:00Z")).isEqualTo(1_791_009_600_000_000L);
    }

    @Test
    void parseRefusesOtherOffsetsAndTooManyDigits() {
        assertThatThrownBy(() -> Micros.parse("2026-10-03T06:40:00.0000001Z")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Micros.parse("2026-10-03T06:40:00+01:00"))
                .hasMessage("'2026-10-03T06:40:00+01:00' is not a UTC stamp of the form YYYY-MM-DDTHH:MM:SS.ffffffZ (or +00:00)");
        assertThatThrownBy(() -> Micros.parse("2026-02-30T06:40:00Z")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Micros.parse("yesterday")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void renderAndParseRoundTrip() {
        Random random = new Random(7);
        for (int i = 0; i < 1000; i++) {
            long micros = random.nextLong(0, 4_000_000_000_000_000L);
            assertThat(Micros.parse(Micros.render(micros))).isEqualTo(micros);
        }
    }

    @Test
    void hourAndDayFloors() {
        long t = Micros.parse("2026-10-03T06:37:37.501942Z");
        assertThat(Micros.render(Micros.hourFloor(t))).isEqualTo("2026-10-03T06:00:00.000000Z");
        assertThat(Micros.render(Micros.dayFloor(t))).isEqualTo("2026-10-03T00:00:00.000000Z");
    }
}
