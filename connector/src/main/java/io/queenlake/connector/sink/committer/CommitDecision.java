package io.queenlake.connector.sink.committer;

import io.queenlake.format.manifest.Committed;
import io.queenlake.format.manifest.Manifest;
import io.queenlake.connector.sink.committable.WindowCommittable;
import java.util.Optional;
import org.apache.flink.annotation.Internal;

/**
 * What the committer does with one window, decided from the KV pointer alone (the truth, never
 * Flink state) and, when the pointer already covers the window, from manifest {@code k} in the
 * lake. Pure: no I/O.
 *
 * <ul>
 *   <li>{@link #COMMIT}: the pointer is exactly one window behind ({@code k-1}, ending at or before
 *       this window's start), or absent and this is window 1.</li>
 *   <li>{@link #ALREADY_COMMITTED}: the pointer is at or past {@code k} and manifest {@code k}
 *       names the same objects (keys and sha256): a replay of a window this job committed.</li>
 *   <li>{@link #FOREIGN_WRITER}: anything else: another writer moved the pointer (past this
 *       window with other objects, backwards, or over a gap). Never written over.</li>
 * </ul>
 */
@Internal
public enum CommitDecision {
    COMMIT,
    ALREADY_COMMITTED,
    FOREIGN_WRITER;

    /** Whether {@link #of} needs manifest {@code k} from the lake to decide (the pointer covers the window). */
    public static boolean needsManifest(Optional<Committed> pointer, long k) {
        return pointer.isPresent() && pointer.get().k() >= k;
    }

    public static CommitDecision of(Optional<Committed> pointer, Optional<Manifest> manifestK, WindowCommittable window) {
        long k = window.k();
        if (pointer.isEmpty()) {
            return k == 1 ? COMMIT : FOREIGN_WRITER;
        }
        Committed at = pointer.get();
        if (at.k() == k - 1) {
            return at.tEnd() <= window.tStart() ? COMMIT : FOREIGN_WRITER;
        }
        if (at.k() >= k) {
            return manifestK.filter(m -> m.k() == k && m.namesSameObjectsAs(window.manifest())).isPresent()
                    ? ALREADY_COMMITTED
                    : FOREIGN_WRITER;
        }
        return FOREIGN_WRITER;
    }
}
