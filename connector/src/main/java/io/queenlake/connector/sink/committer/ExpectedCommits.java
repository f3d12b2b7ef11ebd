package io.queenlake.connector.sink.committer;

import io.queenlake.format.manifest.Committed;
import io.queenlake.connector.sink.committable.WindowCommittable;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Which of one queue's windows, in {@code k} order, {@link CommitDecision} will find one window
 * ahead of the pointer ({@link CommitDecision#COMMIT}) once the windows before them are committed,
 * if nobody else moves the pointer meanwhile: the committer prepares these together (completes
 * their objects, reads their manifests) before walking them in order. Windows the pointer already
 * covers are left out (they take the already-committed path); the chain stops at the first window
 * that would not commit. Pure: no I/O.
 */
final class ExpectedCommits {

    private ExpectedCommits() {}

    static List<WindowCommittable> of(Optional<Committed> pointer, List<WindowCommittable> inOrder) {
        long atK = pointer.map(Committed::k).orElse(0L);
        long atTEnd = pointer.map(Committed::tEnd).orElse(Long.MIN_VALUE);
        List<WindowCommittable> expected = new ArrayList<>();
        for (WindowCommittable window : inOrder) {
            if (window.k() <= atK) {
                continue;
            }
            if (window.k() != atK + 1 || atTEnd > window.tStart()) {
                break;
            }
            expected.add(window);
            atK = window.k();
            atTEnd = window.tEnd();
        }
        return expected;
    }
}
