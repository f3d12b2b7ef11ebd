package io.queenlake.connector.sink.committer;

import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.manifest.ManifestObject;
import io.queenlake.format.model.Layout;
import io.queenlake.connector.sink.committable.StagedObject;
import io.queenlake.connector.sink.committable.WindowCommittable;
import java.util.List;
import java.util.Optional;

/** Committables of made-up windows, for the committer's pure parts: no bucket behind them. */
final class TestCommittables {

    /** The start of window 1. */
    static final long T = 1_791_007_200_000_000L;
    /** Every window's length: five minutes. */
    static final long W = 300_000_000L;

    private TestCommittables() {}

    /** Window k of {@code queue}, {@code [T + (k-1)W, T + kW)}, one object of three records. */
    static WindowCommittable window(String queue, long k) {
        String key = "queen/tenant=t/queue=" + queue + "/dt=2026-10-03/hour=06/w-" + k + ".jsonl.zst";
        Manifest m = new Manifest("default", "t", queue, k, T + (k - 1) * W, T + k * W, "jsonl", "zstd", Layout.MERGED,
                List.of(ManifestObject.merged(key, 100, 3, "aa11")), 3, 100, 1, T + (k - 1) * W, T + (k - 1) * W + 5,
                List.of(), "queen-lake/0.1.0 jsonl+zstd", null);
        return new WindowCommittable(m, List.of(new StagedObject(key, 1, new byte[] {1})), Optional.empty());
    }
}
