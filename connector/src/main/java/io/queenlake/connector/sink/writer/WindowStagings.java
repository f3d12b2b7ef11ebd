package io.queenlake.connector.sink.writer;

import io.queenlake.broker.client.Backoff;
import io.queenlake.format.window.EncodedObject;
import io.queenlake.format.window.EncodedWindow;
import io.queenlake.format.window.WindowEncoder;
import io.queenlake.connector.sink.S3Outages;
import io.queenlake.connector.sink.SinkThreads;
import io.queenlake.connector.sink.committable.StagedObject;
import io.queenlake.connector.sink.committable.WindowCommittable;
import io.queenlake.connector.window.ClosedWindow;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Owns the writer's worker threads and every window handed to them and not yet handed on: the
 * task thread hands over closed windows, a worker encodes one (the bytes are a function of the
 * window alone, whichever thread runs it) and stages its objects, so the task thread goes on with
 * the next records while earlier windows compress and upload. The payload bytes of the windows not
 * yet staged are held to a cap: {@link #stage} blocks above it (except for a single window larger
 * than the cap, which goes alone); {@link #take}, for windows chained behind a reader, never blocks
 * and says instead through {@link #room} when the reader should stop emitting.
 *
 * <p>A failed upload is retried (200 ms doubling to 10 s) for up to the configured time, each
 * outage reported once per queue ({@link S3Outages}, which also reports an upload still running
 * after {@link S3Outages#HANGING_AFTER}: S3A retries inside the call). {@link #awaitAll} waits for each window's
 * first attempt only: it returns, in hand-over order, the committables of the windows staged, and
 * carries a window still retrying, and every later window of its queue, to the next call, so one
 * queue's failing uploads never hold back another queue's commits, and no window of a queue
 * overtakes an earlier one. The carried windows are the writer's Flink state ({@link #carried}),
 * staged again after a restore. A window that could not be staged within the retry time (or could
 * not be encoded) fails every later call with one message naming the queue, the object and the
 * error; the task then fails and restarts from the last checkpoint, whose state holds the window.
 */
final class WindowStagings implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(WindowStagings.class);

    private final Function<ClosedWindow, WindowEncoder> encoders;
    private final ObjectStager stager;
    private final long maxBytesInFlight;
    private final long retryForNanos;
    private final S3Outages outages;
    private final ExecutorService workers;
    private final Object bytes = new Object();
    /** Task thread only: every window handed over and not yet returned, in hand-over order. */
    private List<Staging> pending = new ArrayList<>();

    /** Guarded by {@link #bytes}. */
    private long bytesInFlight;
    /** Done while the bytes not yet staged are under the cap; replaced (under {@link #bytes}) when they reach it. */
    private volatile CompletableFuture<Void> room = CompletableFuture.completedFuture(null);

    private volatile Failure failure;
    private volatile boolean closed;

    /** The first encoding or staging that failed for good, named for the message. */
    private record Failure(String what, long k, String queue, Throwable cause) {}

    /** One window handed over: its first attempt, then its outcome. */
    private record Staging(ClosedWindow window, CompletableFuture<Void> firstAttempt,
            CompletableFuture<WindowCommittable> staged) {}

    /** {@code encoders} picks each window's encoder: this job's, or an open intent's for the window that finishes it. */
    WindowStagings(Function<ClosedWindow, WindowEncoder> encoders, ObjectStager stager, long maxBytesInFlight,
            Duration retryFor, S3Outages outages, int threads, String threadName) {
        this.encoders = encoders;
        this.stager = stager;
        this.maxBytesInFlight = maxBytesInFlight;
        this.retryForNanos = retryFor.toNanos();
        this.outages = outages;
        this.workers = SinkThreads.pool(threads, threadName);
    }

    /**
     * Hands the window to a worker, which encodes it and stages its objects; blocks while the
     * payload bytes of the windows not yet staged exceed the cap.
     */
    void stage(ClosedWindow window) throws IOException, InterruptedException {
        throwIfFailed();
        long weight = window.window().weight();
        reserve(weight);
        start(window, weight);
    }

    /**
     * Hands the window to a worker without waiting, whatever the bytes in flight: for windows closed
     * by the operator chained before the writer, which must never stop in the middle of a close.
     * Past the cap, {@link #room} is not done until the bytes fall under it again.
     */
    void take(ClosedWindow window) throws IOException {
        throwIfFailed();
        long weight = window.window().weight();
        synchronized (bytes) {
            bytesInFlight += weight;
            if (bytesInFlight >= maxBytesInFlight && room.isDone()) {
                room = new CompletableFuture<>();
            }
        }
        start(window, weight);
    }

    /** Done while the bytes not yet staged are under the cap; otherwise it completes when they are again. */
    CompletableFuture<Void> room() {
        return room;
    }

    private void start(ClosedWindow window, long weight) {
        Staging staging = new Staging(window, new CompletableFuture<>(), new CompletableFuture<>());
        workers.execute(() -> encodeAndStage(staging, weight));
        pending.add(staging);
    }

    /** A window's encoded objects and the staging attempts so far; one worker at a time touches it. */
    private static final class Attempts {
        final Staging staging;
        final long reserved;
        final long giveUpAt;
        EncodedWindow encoded;
        final List<StagedObject> objects = new ArrayList<>();
        int failed;

        Attempts(Staging staging, long reserved, long giveUpAt) {
            this.staging = staging;
            this.reserved = reserved;
            this.giveUpAt = giveUpAt;
        }
    }

    private void encodeAndStage(Staging staging, long reserved) {
        Attempts attempts = new Attempts(staging, reserved, System.nanoTime() + retryForNanos);
        try {
            attempts.encoded = encoders.apply(staging.window()).encode(staging.window().window());
        } catch (Throwable t) {
            fail(attempts, "window", t);
            return;
        }
        attempt(attempts);
    }

    /**
     * Stages the objects not staged yet; on an I/O failure schedules the next attempt on the
     * workers after a pause (no worker sleeps, so a failing queue never starves the others).
     */
    private void attempt(Attempts a) {
        ClosedWindow window = a.staging.window();
        String what = "window";
        try {
            if (failure != null || closed) {
                // The task is failing anyway: start no upload it would only strand.
                a.staging.staged().completeExceptionally(new IOException("not staged: an earlier staging failed"));
                done(a);
                return;
            }
            List<EncodedObject> all = a.encoded.objects();
            for (EncodedObject object : all.subList(a.objects.size(), all.size())) {
                what = "object " + object.key();
                // Watched while in flight: S3A retries inside the call, so an outage can show as a call that hangs.
                a.objects.add(outages.run(window.queue(), "staging " + what, () -> stager.stage(object, window.k())));
            }
            a.staging.staged().complete(new WindowCommittable(a.encoded.manifest(), a.objects, window.checkpoint()));
            done(a);
        } catch (IOException e) {
            a.failed++; // reported to the outages by run()
            long pauseMs = Backoff.LAKE.after(a.failed).toMillis();
            if (System.nanoTime() + pauseMs * 1_000_000L - a.giveUpAt > 0) {
                fail(a, what + " after " + a.failed + " attempts over " + Duration.ofNanos(retryForNanos).toSeconds()
                        + " s", e);
                return;
            }
            // Retrying: prepareCommit waits no longer for this window (it is carried in the writer's state).
            a.staging.firstAttempt().complete(null);
            String failedWhat = what;
            CompletableFuture.runAsync(() -> attempt(a),
                            CompletableFuture.delayedExecutor(pauseMs, TimeUnit.MILLISECONDS, workers))
                    .exceptionally(t -> {
                        fail(a, failedWhat, t);
                        return null;
                    });
        } catch (Throwable t) {
            fail(a, what, t);
        }
    }

    private void fail(Attempts a, String what, Throwable t) {
        synchronized (bytes) {
            if (failure == null) {
                failure = new Failure(what, a.staging.window().k(), a.staging.window().queue(), t);
            }
        }
        a.staging.staged().completeExceptionally(t);
        done(a);
    }

    /** The window's outcome is decided: its first attempt is over and its bytes leave the cap. */
    private void done(Attempts a) {
        a.staging.firstAttempt().complete(null);
        release(a.reserved);
    }

    /**
     * Waits for the first attempt of every window handed over, and returns the committables of
     * those staged, in the order handed over; a window still retrying and the later windows of its
     * queue stay for the next call; with {@code everything} (at the end of the input, when no later
     * call comes) waits for every window's outcome. Throws the first failure for good instead,
     * handing none.
     */
    List<WindowCommittable> awaitAll(boolean everything) throws IOException, InterruptedException {
        List<WindowCommittable> ready = new ArrayList<>(pending.size());
        List<Staging> carried = new ArrayList<>();
        Set<String> held = new HashSet<>();
        for (Staging staging : pending) {
            String queue = staging.window().queue();
            if (!held.contains(queue)) {
                try {
                    (everything ? staging.staged() : staging.firstAttempt()).get();
                    if (staging.staged().isDone()) {
                        ready.add(staging.staged().get());
                        continue;
                    }
                } catch (ExecutionException e) {
                    throwIfFailed();
                    throw new IOException("could not stage a window", e.getCause());
                }
                held.add(queue);
                LOG.debug("window queue={} k={} is still being staged: carried to the next checkpoint", queue,
                        staging.window().k());
            }
            carried.add(staging);
        }
        throwIfFailed();
        pending = carried;
        return ready;
    }

    /**
     * Waits for nothing: returns, in hand-over order, the committables of each queue's windows
     * staged so far up to its first window not staged yet, which stays (with every later window of
     * its queue) for a later call. For a writer whose windows are read again from the broker when a
     * checkpoint does not hold them ({@link io.queenlake.connector.window.WindowHandover}): a slow or failing
     * upload then holds back neither the barrier nor another queue. Throws the first failure for good.
     */
    List<WindowCommittable> takeStaged() throws IOException {
        throwIfFailed();
        List<WindowCommittable> ready = new ArrayList<>();
        List<Staging> later = new ArrayList<>();
        Set<String> held = new HashSet<>();
        for (Staging staging : pending) {
            String queue = staging.window().queue();
            CompletableFuture<WindowCommittable> staged = staging.staged();
            if (!held.contains(queue) && staged.isDone() && !staged.isCompletedExceptionally()) {
                ready.add(staged.join());
            } else {
                held.add(queue);
                later.add(staging);
            }
        }
        throwIfFailed();
        pending = later;
        return ready;
    }

    /** The windows handed over and not yet returned by {@link #awaitAll}, in hand-over order: the writer's state. */
    List<ClosedWindow> carried() {
        return pending.stream().map(Staging::window).toList();
    }

    private void reserve(long size) throws IOException, InterruptedException {
        synchronized (bytes) {
            while (bytesInFlight > 0 && bytesInFlight + size > maxBytesInFlight && failure == null) {
                bytes.wait();
            }
            bytesInFlight += size;
        }
        throwIfFailed();
    }

    private void release(long size) {
        CompletableFuture<Void> freed = null;
        synchronized (bytes) {
            bytesInFlight -= size;
            bytes.notifyAll();
            if ((bytesInFlight < maxBytesInFlight || failure != null) && !room.isDone()) {
                freed = room;
            }
        }
        if (freed != null) {
            freed.complete(null); // outside the lock: the reader's task wakes up on it
        }
    }

    private void throwIfFailed() throws IOException {
        Failure f = failure;
        if (f != null) {
            throw new IOException("could not stage " + f.what() + " of window " + f.k() + " of queue '" + f.queue()
                    + "' (" + f.cause() + "): the job restarts from its last checkpoint and stages the window again;"
                    + " if this repeats, check that the lake root is reachable and writable", f.cause());
        }
    }

    /** Stops the worker threads; an upload still running is abandoned (a stranded staging, see README-sink.md). */
    @Override
    public void close() {
        closed = true;
        workers.shutdownNow();
        room.complete(null); // nothing waits for room in a writer that is gone
    }
}
