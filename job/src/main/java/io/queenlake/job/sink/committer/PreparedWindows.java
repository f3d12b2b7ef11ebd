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
 * The bucket reads of a run of one queue's windows that do not depend on their order, started
 * together: each window's manifest {@code k} (left by an earlier attempt, or absent). Nothing here
 * publishes: the committer completes a window's objects only after its intent is in KV, one window
 * at a time, and takes each read's result only when it reaches that window.
 */
final class PreparedWindows {

    private final Map<Long, CompletableFuture<Optional<Manifest>>> byK = new HashMap<>();

    /** Starts the work of {@code windows} on {@code bucketIo}. */
    PreparedWindows(LakeObjects objects, List<WindowCommittable> windows, Executor bucketIo) {
        for (WindowCommittable window : windows) {
            byK.put(window.k(), CompletableFuture.supplyAsync(() -> {
                try {
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

    /** Waits for the read and returns the window's manifest {@code k} as found before this commit; throws what the read threw. */
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
