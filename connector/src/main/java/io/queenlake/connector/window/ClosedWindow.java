package io.queenlake.connector.window;

import io.queenlake.format.manifest.CheckpointDoc;
import io.queenlake.format.manifest.Intent;
import io.queenlake.format.window.WindowContent;
import io.queenlake.connector.window.ClosedWindowTypeInfo;
import java.util.Objects;
import java.util.Optional;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.TypeInfo;

/**
 * What the window operator hands the lake sink: one closed, numbered window of one queue (after
 * the size cut, so {@code k} is final) and, every {@code queen.s3.checkpoint-every} windows, the
 * resume positions to publish with it. A pure function of the log: the same records always close
 * into the same {@code ClosedWindow}, whatever the parallelism or arrival order. A window that
 * finishes an open intent (a redo, docs/ARCHITECTURE.md "Restore") carries that intent: the sink
 * encodes it with the intent's format, compression and layout, not its own settings, so it lands
 * under the keys the intent's objects have. Flink writes it with {@code ClosedWindowSerializer}
 * (named through {@code @TypeInfo}), never Kryo.
 */
@TypeInfo(ClosedWindowTypeInfo.Factory.class)
@PublicEvolving
public record ClosedWindow(WindowContent window, Optional<CheckpointDoc> checkpoint, Optional<Intent> redo) {

    /** A window cut by this job's own settings. */
    public ClosedWindow(WindowContent window, Optional<CheckpointDoc> checkpoint) {
        this(window, checkpoint, Optional.empty());
    }

    public ClosedWindow {
        Objects.requireNonNull(window, "window");
        Objects.requireNonNull(checkpoint, "checkpoint");
        Objects.requireNonNull(redo, "redo");
        redo.ifPresent(i -> {
            if (i.k() != window.k() || i.tStart() != window.tStart() || i.tEnd() != window.tEnd()) {
                throw new IllegalArgumentException("intent k=" + i.k() + " [" + i.tStart() + ", " + i.tEnd()
                        + ") does not describe window k=" + window.k() + " [" + window.tStart() + ", " + window.tEnd() + ")");
            }
        });
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
