package io.queenlake.format.manifest;

import io.queenlake.format.key.DataKey;
import java.util.Objects;

/**
 * One data object named by a manifest: its key, compressed size, record count and sha256
 * (lowercase hex of the body); a per-partition object also names its partition and offsets.
 *
 * @param slice partition and first/last offset of a per-partition object, null when merged
 */
public record ManifestObject(String key, long bytes, long records, String sha256, DataKey.PartitionSlice slice) {

    public ManifestObject {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(sha256, "sha256");
    }

    public static ManifestObject merged(String key, long bytes, long records, String sha256) {
        return new ManifestObject(key, bytes, records, sha256, null);
    }

    public boolean isPerPartition() {
        return slice != null;
    }

    void write(JsonOut out) {
        out.beginObject()
                .field("key", key)
                .field("bytes", bytes)
                .field("records", records)
                .field("sha256", sha256);
        if (slice != null) {
            out.field("partition", slice.partition())
                    .field("firstOffset", slice.firstOffset())
                    .field("lastOffset", slice.lastOffset());
        }
        out.endObject();
    }

    static ManifestObject read(JsonIn in) {
        DataKey.PartitionSlice slice = in.has("partition")
                ? new DataKey.PartitionSlice(in.string("partition"), in.integer("firstOffset"), in.integer("lastOffset"))
                : null;
        return new ManifestObject(in.string("key"), in.integer("bytes"), in.integer("records"), in.string("sha256"), slice);
    }
}
