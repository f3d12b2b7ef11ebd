package io.queenlake.format.manifest;

import java.util.Objects;

/**
 * The KV commit pointer {@code s3:<sink>:<escQueue>:committed}: the one thing that makes window
 * {@code k} real. {@code tEnd} is written as an ISO string (the broker's retention hold reads it
 * that way); the reader also accepts the integer the reference's 1.5 wrote.
 */
public record Committed(long k, long tEnd, String manifest, long records, long bytes, long committedAtMs) {

    public Committed {
        Objects.requireNonNull(manifest, "manifest");
    }

    public byte[] toJson() {
        return new JsonOut().beginObject()
                .field("k", k)
                .name("tEnd").stamp(tEnd)
                .field("manifest", manifest)
                .field("records", records)
                .field("bytes", bytes)
                .field("committedAtMs", committedAtMs)
                .endObject().toBytes();
    }

    public static Committed fromJson(byte[] json) {
        JsonIn in = JsonIn.parse("committed pointer", json);
        return new Committed(in.integer("k"), in.stamp("tEnd"), in.string("manifest"), in.integerOr("records", 0),
                in.integerOr("bytes", 0), in.integerOr("committedAtMs", 0));
    }
}
