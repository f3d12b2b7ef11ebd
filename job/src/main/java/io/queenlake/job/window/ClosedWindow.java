package io.queenlake.job.window;

import io.queenlake.format.manifest.CheckpointDoc;
import io.queenlake.format.window.WindowInput;
import io.queenlake.job.window.ClosedWindowTypeInfo;
import java.util.Objects;
import java.util.Optional;
import org.apache.flink.api.common.typeinfo.TypeInfo;

/**
 * What the window operator hands the lake sink: one closed, numbered window of one queue (after
 * the size cut, so {@code k} is final) and, every {@code QUEEN_S3_CHECKPOINT_EVERY} windows, the
 * resume positions to publish with it. A pure function of the log: the same records always close
 * into the same {@code ClosedWindow}, whatever the parallelism or arrival order. Flink writes it with
 * {@code ClosedWindowSerializer} (named through {@code @TypeInfo}), never Kryo.
 */
@TypeInfo(ClosedWindowTypeInfo.Factory.class)
public record ClosedWindow(WindowInput window, Optional<CheckpointDoc> checkpoint) {

    public ClosedWindow {
        Objects.requireNonNull(window, "window");
        Objects.requireNonNull(checkpoint, "checkpoint");
        checkpoint.ifPresent(cp -> {
            if (cp.k() != window.k() || cp.tEnd() != window.tEnd()) {
                throw new IllegalArgumentException("checkpoint k=" + cp.k() + " tEnd=" + cp.tEnd()
                        + " does not belong to window k=" + window.k() + " tEnd=" + window.tEnd());
            }
        });
    }

    public String queue() {
        return window.queue();
    }

    public long k() {
        return window.k();
    }
}
