package io.queenlake.broker.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class BrokerTimeTest {

    @Test
    void aCanonicalStampReadsAsItsMicroseconds() {
        // Expected values computed independently (Python datetime), not by the code under test.
        assertThat(BrokerTime.parseMicros("2026-10-03T06:37:37.501942Z")).isEqualTo(1_791_009_457_501_942L);
        assertThat(BrokerTime.parseMicros("2026-09-04T10:05:00.000001Z")).isEqualTo(1_788_516_300_000_001L);
        assertThat(BrokerTime.parseMicros("2024-02-29T23:59:59.999999Z")).isEqualTo(1_709_251_199_999_999L);
        assertThat(BrokerTime.parseMicros("1970-01-01T00:00:00.000000Z")).isZero();
        assertThat(BrokerTime.parseMicros("1969-12-31T23:59:59.000001Z")).isEqualTo(-999_999L);
    }

    @Test
    void kvTimesWithAnOffsetSuffixReadTheSame() {
        assertThat(BrokerTime.parseMicros("2026-10-03T06:37:37.501942+00:00")).isEqualTo(1_791_009_457_501_942L);
        assertThat(BrokerTime.parseMicros("2026-10-03T06:37:37+00:00")).isEqualTo(1_791_009_457_000_000L);
        assertThat(BrokerTime.parseMicros("2026-10-03T08:37:37.5+02:00")).isEqualTo(1_791_009_457_500_000L);
    }

    @Test
    void fewerFractionDigitsMeanTheSameInstant() {
        assertThat(BrokerTime.parseMicros("2026-10-03T06:37:37.5Z")).isEqualTo(1_791_009_457_500_000L);
        assertThat(BrokerTime.parseMicros("2026-10-03T06:37:37Z")).isEqualTo(1_791_009_457_000_000L);
    }

    @Test
    void aStampRendersAsTheBrokerRendersIt() {
        assertThat(BrokerTime.render(1_791_009_457_501_942L)).isEqualTo("2026-10-03T06:37:37.501942Z");
        assertThat(BrokerTime.render(0)).isEqualTo("1970-01-01T00:00:00.000000Z");
        assertThat(BrokerTime.render(-999_999L)).isEqualTo("1969-12-31T23:59:59.000001Z");
    }

    @Test
    void anImpossibleDateIsRefusedNamingTheText() {
        assertThatThrownBy(() -> BrokerTime.parseMicros("2026-02-30T00:00:00.000000Z"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("2026-02-30T00:00:00.000000Z");
        assertThatThrownBy(() -> BrokerTime.parseMicros("yesterday"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'yesterday' is not a broker timestamp");
    }
}
