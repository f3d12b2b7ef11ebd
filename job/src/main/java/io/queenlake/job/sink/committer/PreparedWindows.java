package io.queenlake.job.sink.committer;

import io.queenlake.format.manifest.Manifest;
import io.queenlake.job.sink.committable.WindowCommittable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * The bucket work of a run of one queue's windows that does not depend on their order, started
 * together: complete each window's staged objects (idempotent) and then read its manifest
 * {@code k} (left by an earlier attempt, or absent). The committer still walks the windows in
 * {@code k} order and takes each one's result only when it reaches it, so a manifest and a
 * pointer move never overtake an earlier window.
 */
final class PreparedWindows {

    private final Map<Long, CompletableFuture<Optional<Manifest>>> byK = new HashMap<>();

    /** Starts the work of {@code windows} on {@code bucketIo}. */
    PreparedWindows(LakeObjects objects, List<WindowCommittable> windows, Executor bucketIo) {
        for (WindowCommittable window : windows) {
            byK.put(window.k(), CompletableFuture.supplyAsync(() -> {
                try {
                    objects.complete(window);
                    return objects.readManifest(window);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }, bucketIo));
        }
    }

    /** None started: every window is prepared when the committer reaches it. */
    static PreparedWindows none() {
        return new PreparedWindows(null, List.of(), Runnable::run);
    }

    boolean has(WindowCommittable window) {
        return byK.containsKey(window.k());
    }

    /**
     * Waits for the window's objects to be complete and returns its manifest {@code k} as found
     * before this commit; throws what the completion or the read threw.
     */
    Optional<Manifest> await(WindowCommittable window) throws IOException {
        try {
            return byK.get(window.k()).join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof UncheckedIOException io) {
                throw io.getCause();
            }
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw e;
        }
    }

    /** Waits until every started preparation ended, whatever its outcome (none runs on after a commit call). */
    void settle() {
        for (CompletableFuture<Optional<Manifest>> f : byK.values()) {
            try {
                f.join();
            } catch (RuntimeException ignored) {
                // Reported by await() when the walk reaches that window, or moot once it stopped earlier.
            }
        }
    }
}
