package io.queenlake.format.manifest;

import java.util.Objects;

/**
 * The value of the lease {@code s3:<sink>:<escQueue>:lease} (and of a presence row): which
 * instance holds the queue, its per-attempt incarnation (16 lowercase hex digits) and since when.
 */
public record LeaseDoc(String instance, String incarnation, long sinceMs) {

    public LeaseDoc {
        Objects.requireNonNull(instance, "instance");
        Objects.requireNonNull(incarnation, "incarnation");
    }

    public byte[] toJson() {
        return new JsonOut().beginObject()
                .field("instance", instance)
                .field("incarnation", incarnation)
                .field("sinceMs", sinceMs)
                .endObject().toBytes();
    }

    public static LeaseDoc fromJson(byte[] json) {
        JsonIn in = JsonIn.parse("lease", json);
        return new LeaseDoc(in.string("instance"), in.stringOr("incarnation", ""), in.integerOr("sinceMs", 0));
    }
}
