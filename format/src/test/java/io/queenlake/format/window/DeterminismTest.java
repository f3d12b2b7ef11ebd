package io.queenlake.format.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.format.key.Prefix;
import io.queenlake.format.model.Align;
import io.queenlake.format.model.Layout;
import io.queenlake.format.model.LogRecord;
import io.queenlake.format.testutils.Arrivals;
import io.queenlake.format.testutils.DeterminismProbe;
import java.io.IOException;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Same records, any arrival order: the same objects, byte for byte, in every format and layout. */
class DeterminismTest {

    static Stream<Arguments> settings() {
        return DeterminismProbe.SETTINGS.stream()
                .flatMap(s -> Stream.of(Layout.MERGED, Layout.PER_PARTITION)
                        .map(l -> Arguments.of(new WriterSettings(s.format(), l, Align.HOUR, s.targetBytes()))));
    }

    @ParameterizedTest
    @MethodSource("settings")
    void anyArrivalOrderGivesTheSameObjects(WriterSettings settings) throws IOException {
        List<LogRecord> records = DeterminismProbe.records();
        WindowEncoder encoder = new WindowEncoder(settings, Prefix.DEFAULT, "default");
        EncodedWindow baseline = encoder.encode(DeterminismProbe.window(records));
        for (long seed = 1; seed <= 25; seed++) {
            List<LogRecord> arrived = Arrivals.interleave(records, new Random(seed));
            EncodedWindow again = encoder.encode(DeterminismProbe.window(arrived));
            assertThat(again.manifest()).as("seed %d, %s", seed, settings.describe()).isEqualTo(baseline.manifest());
            for (int i = 0; i < baseline.objects().size(); i++) {
                assertThat(again.objects().get(i).body()).as("seed %d, %s, object %d", seed, settings.describe(), i)
                        .isEqualTo(baseline.objects().get(i).body());
            }
        }
    }
}
