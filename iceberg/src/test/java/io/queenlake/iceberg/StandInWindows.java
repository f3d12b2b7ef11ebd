package io.queenlake.iceberg;

import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.manifest.ManifestObject;
import io.queenlake.format.model.Layout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The committed windows the table tests append: 100 ms windows of queue {@code orders}, sink
 * {@code default}, from an hour boundary (so they stay in one hour partition), each one object of
 * 3 records whose data file is a stand-in (never opened).
 */
final class StandInWindows {

    static final long HOUR_MICROS = 3_600_000_000L;
    /** An hour boundary: 100 ms windows from here stay in one hour partition. */
    static final long T = 1_796_000L * HOUR_MICROS;
    static final long W = 100_000L;
    static final String SINK = "default";
    static final String QUEUE = "orders";

    private StandInWindows() {}

    /** Window {@code k} with its one object at {@code key}. */
    static Manifest window(long k, String key, Long committedAtMicros) {
        long tStart = T + (k - 1) * W;
        return new Manifest(SINK, "t", QUEUE, k, tStart, tStart + W, "parquet", "zstd", Layout.MERGED,
                List.of(ManifestObject.merged(key, 20, 3, "aa")), 3, 20, 1, tStart, tStart + W - 1, List.of(),
                "queen-lake/test", committedAtMicros);
    }

    /** Window {@code k}, its object {@code k-<k>.parquet} written as a stand-in file in the lake folder. */
    static Manifest inLake(Path lake, long k) throws IOException {
        String key = "k-" + k + ".parquet";
        Path object = lake.resolve(key);
        if (!Files.exists(object)) {
            Files.writeString(object, "stand-in of window " + k);
        }
        return window(k, key, null);
    }
}
