package io.queenlake.broker.client;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Semaphore;

/**
 * Reads many partitions at once: splits the entries into calls of at most 1024 (the broker's
 * ceiling), keeps at most {@code maxInFlight} calls open, and answers in entry order.
 *
 * <p>Each entry keeps its own {@code maxBytes}. A failed call fails the whole read with that
 * call's {@link QueenException}; callers retry the read.
 */
public final class FetchBatcher {

    private final QueenClient client;
    private final int maxInFlight;
    private final int entriesPerCall;

    public FetchBatcher(QueenClient client, int maxInFlight) {
        this(client, maxInFlight, FetchRequest.MAX_ENTRIES);
    }

    FetchBatcher(QueenClient client, int maxInFlight, int entriesPerCall) {
        if (maxInFlight < 1) {
            throw new IllegalArgumentException("fetch concurrency must be at least 1, was " + maxInFlight);
        }
        if (entriesPerCall < 1 || entriesPerCall > FetchRequest.MAX_ENTRIES) {
            throw new IllegalArgumentException("entries per fetch call must be in [1, 1024], was " + entriesPerCall);
        }
        this.client = client;
        this.maxInFlight = maxInFlight;
        this.entriesPerCall = entriesPerCall;
    }

    /** Reads every entry now (no long poll); blocks while {@code maxInFlight} calls are open. */
    public List<FetchedPartition> fetchAll(List<FetchEntry> entries) {
        if (entries.isEmpty()) {
            return List.of();
        }
        Semaphore permits = new Semaphore(maxInFlight);
        List<CompletableFuture<List<FetchedPartition>>> calls = new ArrayList<>();
        try {
            for (int from = 0; from < entries.size(); from += entriesPerCall) {
                List<FetchEntry> chunk = entries.subList(from, Math.min(entries.size(), from + entriesPerCall));
                permits.acquire();
                CompletableFuture<List<FetchedPartition>> call;
                try {
                    call = client.fetchAsync(FetchRequest.immediate(chunk));
                } catch (RuntimeException e) {
                    permits.release();
                    throw e;
                }
                calls.add(call.whenComplete((answer, failure) -> permits.release()));
                if (calls.get(calls.size() - 1).isCompletedExceptionally()) {
                    break;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            calls.forEach(c -> c.cancel(true));
            throw QueenException.interrupted(client.broker(), Route.FETCH, e);
        }
        List<FetchedPartition> answered = new ArrayList<>(entries.size());
        for (CompletableFuture<List<FetchedPartition>> call : calls) {
            try {
                answered.addAll(call.join());
            } catch (CompletionException e) {
                calls.forEach(c -> c.cancel(true));
                if (e.getCause() instanceof QueenException q) {
                    throw q;
                }
                throw e;
            }
        }
        return answered;
    }
}
