package io.queenlake.job.sink.writer;

import io.queenlake.format.manifest.CheckpointDoc;
import io.queenlake.format.window.EncodedObject;
import io.queenlake.format.model.LogRecord;
import io.queenlake.format.window.EncodedWindow;
import io.queenlake.format.window.WindowEncoder;
import io.queenlake.format.window.WindowInput;
import io.queenlake.job.sink.SinkThreads;
import io.queenlake.job.sink.committable.StagedObject;
import io.queenlake.job.sink.committable.WindowCommittable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;

/**
 * Owns the writer's worker threads and every window handed to them since the last
 * {@link #awaitAll}: the task thread hands over closed windows, a worker encodes one (the bytes
 * are a function of the window alone, whichever thread runs it) and stages its objects, so the
 * task thread goes on with the next records while earlier windows compress and upload. The
 * payload bytes of the windows not yet staged stay under a cap ({@link #stage} blocks above it,
 * except for a single window larger than the cap, which goes alone). Windows come back from
 * {@link #awaitAll} in the order they were handed over, each only once all its objects are
 * staged; the first failure fails every later call, so no committable is ever made for an object
 * that is not staged.
 */
final class WindowStagings implements AutoCloseable {

    private final WindowEncoder encoder;
    private final ObjectStager stager;
    private final long maxBytesInFlight;
    private final ExecutorService workers;
    private final Object bytes = new Object();
    private final List<CompletableFuture<WindowCommittable>> pending = new ArrayList<>();

    /** Guarded by {@link #bytes}. */
    private long bytesInFlight;

    private volatile Failure failure;

    /** The first encoding or staging that failed, named for the message. */
    private record Failure(String what, long k, String queue, Throwable cause) {}

    WindowStagings(WindowEncoder encoder, ObjectStager stager, long maxBytesInFlight, int threads, String threadName) {
        this.encoder = encoder;
        this.stager = stager;
        this.maxBytesInFlight = maxBytesInFlight;
        this.workers = SinkThreads.pool(threads, threadName);
    }

    /**
     * Hands the window to a worker, which encodes it and stages its objects; blocks while the
     * payload bytes of the windows not yet staged exceed the cap.
     */
    void stage(WindowInput window, Optional<CheckpointDoc> checkpoint) throws IOException, InterruptedException {
        stage(window, checkpoint, encoder);
    }

    /** As {@link #stage(WindowInput, Optional)}, encoding with {@code with} (a redo's own format). */
    void stage(WindowInput window, Optional<CheckpointDoc> checkpoint, WindowEncoder with)
            throws IOException, InterruptedException {
        throwIfFailed();
        long weight = 0;
        for (LogRecord r : window.records()) {
            weight += r.weight();
        }
        reserve(weight);
        CompletableFuture<WindowCommittable> staged = new CompletableFuture<>();
        long reserved = weight;
        workers.execute(() -> encodeAndStage(with, window, checkpoint, reserved, staged));
        pending.add(staged);
    }

    private void encodeAndStage(WindowEncoder encoder, WindowInput window, Optional<CheckpointDoc> checkpoint, long reserved,
            CompletableFuture<WindowCommittable> staged) {
        String what = "window";
        try {
            if (failure != null) {
                // The task is failing anyway: start no upload it would only strand.
                staged.completeExceptionally(new IOException("not staged: an earlier staging failed"));
                return;
            }
            EncodedWindow encoded = encoder.encode(window);
            List<StagedObject> objects = new ArrayList<>(encoded.objects().size());
            for (EncodedObject object : encoded.objects()) {
                what = "object " + object.key();
                objects.add(stager.stage(object, window.k()));
            }
            staged.complete(new WindowCommittable(encoded.manifest(), objects, checkpoint));
        } catch (Throwable t) {
            synchronized (bytes) {
                if (failure == null) {
                    failure = new Failure(what, window.k(), window.queue(), t);
                }
            }
            staged.completeExceptionally(t);
        } finally {
            release(reserved);
        }
    }

    /**
     * Waits for every window handed over since the last call and returns their committables in
     * the order handed over; throws the first staging failure instead, handing none.
     */
    List<WindowCommittable> awaitAll() throws IOException, InterruptedException {
        List<WindowCommittable> ready = new ArrayList<>(pending.size());
        for (CompletableFuture<WindowCommittable> window : pending) {
            try {
                ready.add(window.get());
            } catch (ExecutionException e) {
                throwIfFailed();
                throw new IOException("could not stage a window", e.getCause());
            }
        }
        throwIfFailed();
        pending.clear();
        return ready;
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
        synchronized (bytes) {
            bytesInFlight -= size;
            bytes.notifyAll();
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
        workers.shutdownNow();
    }
}
