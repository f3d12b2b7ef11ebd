package io.queenlake.format.manifest;

import java.util.Objects;
import java.util.Optional;

/**
 * The value of the lease {@code s3:<sink>:<escQueue>:lease} (and of a presence row): which
 * instance holds the queue, its per-attempt incarnation (16 lowercase hex digits) and since when;
 * in a lease, optionally the holder's {@link Progress} on the queue (docs/LAKE-FORMAT.md).
 */
public record LeaseDoc(String instance, String incarnation, long sinceMs, Optional<Progress> progress) {

    /**
     * How far a completed checkpoint of the holder closed the queue: every record stamped below
     * {@code closedThroughMicros} is in a window numbered {@code k} or lower, so once the commit
     * pointer reaches {@code k} the queue is complete through that stamp, even while it is idle.
     */
    public record Progress(long k, long closedThroughMicros) {}

    public LeaseDoc {
        Objects.requireNonNull(instance, "instance");
        Objects.requireNonNull(incarnation, "incarnation");
        progress = progress == null ? Optional.empty() : progress;
    }

    public LeaseDoc(String instance, String incarnation, long sinceMs) {
        this(instance, incarnation, sinceMs, Optional.empty());
    }

    public LeaseDoc withProgress(Optional<Progress> next) {
        return new LeaseDoc(instance, incarnation, sinceMs, next);
    }

    public byte[] toJson() {
        JsonOut out = new JsonOut().beginObject()
                .field("instance", instance)
                .field("incarnation", incarnation)
                .field("sinceMs", sinceMs);
        progress.ifPresent(p -> out.field("closedK", p.k()).name("closedThrough").stamp(p.closedThroughMicros()));
        return out.endObject().toBytes();
    }

    public static LeaseDoc fromJson(byte[] json) {
        JsonIn in = JsonIn.parse("lease", json);
        Optional<Progress> progress = in.has("closedK") && in.has("closedThrough")
                ? Optional.of(new Progress(in.integer("closedK"), in.stamp("closedThrough")))
                : Optional.empty();
        return new LeaseDoc(in.string("instance"), in.stringOr("incarnation", ""), in.integerOr("sinceMs", 0), progress);
    }
}
