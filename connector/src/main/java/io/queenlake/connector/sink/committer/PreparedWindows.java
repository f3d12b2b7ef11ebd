package io.queenlake.connector.sink.committer;

import io.queenlake.format.manifest.Manifest;
import io.queenlake.connector.sink.committable.WindowCommittable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * The bucket reads of a run of one queue's windows that do not depend on their order, started
 * together: the manifest {@code k} an earlier attempt or another writer may have left, for the one
 * window whose manifest the committer must check (none in its steady state). Nothing here
 * publishes: the committer completes a window's objects only after its intent is in KV, one window
 * at a time, and takes each read's result only when it reaches that window.
 */
final class PreparedWindows {

    private final Map<Long, CompletableFuture<FoundManifest>> byK = new HashMap<>();

    /**
     * Starts the read of manifest {@code read} on {@code bucketIo} when it is one of {@code windows};
     * the others' manifests are known absent (the committer's steady state: it wrote the one before).
     */
    PreparedWindows(LakeObjects objects, List<WindowCommittable> windows, OptionalLong read, Executor bucketIo) {
        for (WindowCommittable window : windows) {
            if (read.isEmpty() || read.getAsLong() != window.k()) {
                byK.put(window.k(), CompletableFuture.completedFuture(FoundManifest.absent()));
                continue;
            }
            byK.put(window.k(), CompletableFuture.supplyAsync(() -> {
                try {
                    return objects.findManifest(window);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }, bucketIo));
        }
    }

    /** None started: every window is prepared when the committer reaches it. */
    static PreparedWindows none() {
        return new PreparedWindows(null, List.of(), OptionalLong.empty(), Runnable::run);
    }

    boolean has(WindowCommittable window) {
        return byK.containsKey(window.k());
    }

    /** Waits for the read and returns the window's manifest {@code k} as found before this commit; throws what the read threw. */
    FoundManifest await(WindowCommittable window) throws IOException {
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
        for (CompletableFuture<FoundManifest> f : byK.values()) {
            try {
                f.join();
            } catch (RuntimeException ignored) {
                // Reported by await() when the walk reaches that window, or moot once it stopped earlier.
            }
        }
    }
}
