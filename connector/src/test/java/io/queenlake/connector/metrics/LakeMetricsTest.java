package io.queenlake.connector.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.manifest.ManifestObject;
import io.queenlake.format.model.Layout;
import io.queenlake.format.model.LostRange;
import java.util.List;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.junit.jupiter.api.Test;

class LakeMetricsTest {

    private static final long T = 1_791_007_200_000_000L;

    private final RecordingMetricGroup registered = new RecordingMetricGroup();

    @Test
    void aCommittedWindowCountsItsRecordsBytesAndLossUnderItsQueueLabel() {
        LakeMetrics metrics = new LakeMetrics(registered);

        metrics.recordCommitted(manifest("orders", 1, 10, 300, List.of(new LostRange("p", 3, 5))));
        metrics.recordCommitted(manifest("orders", 2, 4, 100, List.of()));
        metrics.recordCommitted(manifest("refunds", 1, 1, 50, List.of()));

        assertThat(count("queue=orders." + LakeMetrics.WINDOWS_COMMITTED)).isEqualTo(2);
        assertThat(count("queue=orders." + LakeMetrics.RECORDS_WRITTEN)).isEqualTo(14);
        assertThat(count("queue=orders." + LakeMetrics.BYTES_WRITTEN)).isEqualTo(400);
        assertThat(count("queue=orders." + LakeMetrics.RECORDS_LOST)).isEqualTo(3);
        assertThat(gauge("queue=orders." + LakeMetrics.COMMITTED_K)).isEqualTo(2L);
        assertThat(count("queue=refunds." + LakeMetrics.RECORDS_WRITTEN)).isEqualTo(1);
    }

    @Test
    void aReplayedWindowMovesCommittedKButCountsNothing() {
        LakeMetrics metrics = new LakeMetrics(registered);

        metrics.recordAlreadyCommitted("orders", 7, T);

        assertThat(gauge("queue=orders." + LakeMetrics.COMMITTED_K)).isEqualTo(7L);
        assertThat(count("queue=orders." + LakeMetrics.WINDOWS_COMMITTED)).isZero();
    }

    private long count(String name) {
        return ((Counter) registered.get(name)).getCount();
    }

    private Object gauge(String name) {
        return ((Gauge<?>) registered.get(name)).getValue();
    }

    private static Manifest manifest(String queue, long k, long records, long bytes, List<LostRange> lost) {
        return new Manifest("default", "t", queue, k, T, T + 300_000_000L, "jsonl", "zstd", Layout.MERGED,
                List.of(ManifestObject.merged("key", bytes, records, "aa")), records, bytes, 1, T, T, lost,
                "queen-lake/0.1.0 jsonl+zstd", null);
    }
}
