package io.queenlake.job.sink.writer;

import io.queenlake.format.manifest.CheckpointDoc;
import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.window.EncodedObject;
import io.queenlake.format.window.EncodedWindow;
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
 * Owns the writer's upload executor and every window staged on it since the last
 * {@link #awaitAll}: the task thread hands over encoded windows, a few upload threads stage their
 * objects, and the bytes not yet staged stay under a cap ({@link #stage} blocks above it, except
 * for a single window larger than the cap, which goes alone). Windows come back from
 * {@link #awaitAll} in the order they were handed over, each only once all its objects are
 * staged; the first staging failure fails every later call, so no committable is ever made for an
 * object that is not staged.
 */
final class WindowStagings implements AutoCloseable {

    private final ObjectStager stager;
    private final long maxBytesInFlight;
    private final ExecutorService uploads;
    private final Object bytes = new Object();
    private final List<Pending> pending = new ArrayList<>();

    /** Guarded by {@link #bytes}. */
    private long bytesInFlight;

    private volatile Failure failure;

    /** A window handed over: its unstamped manifest, its objects' stagings, its checkpoint doc. */
    private record Pending(Manifest manifest, List<CompletableFuture<StagedObject>> objects,
            Optional<CheckpointDoc> checkpoint) {}

    /** The first staging that failed, named for the message. */
    private record Failure(String key, long k, String queue, Throwable cause) {}

    WindowStagings(ObjectStager stager, long maxBytesInFlight, int threads, String threadName) {
        this.stager = stager;
        this.maxBytesInFlight = maxBytesInFlight;
        this.uploads = SinkThreads.pool(threads, threadName);
    }

    /** Starts staging the window's objects; blocks while the bytes still to stage exceed the cap. */
    void stage(EncodedWindow window, Optional<CheckpointDoc> checkpoint) throws IOException, InterruptedException {
        throwIfFailed();
        long size = 0;
        for (EncodedObject object : window.objects()) {
            size += object.body().length;
        }
        reserve(size);
        Manifest manifest = window.manifest();
        List<CompletableFuture<StagedObject>> objects = new ArrayList<>(window.objects().size());
        for (EncodedObject object : window.objects()) {
            CompletableFuture<StagedObject> staged = new CompletableFuture<>();
            uploads.execute(() -> stageOne(object, manifest, staged));
            objects.add(staged);
        }
        pending.add(new Pending(manifest, objects, checkpoint));
    }

    private void stageOne(EncodedObject object, Manifest manifest, CompletableFuture<StagedObject> staged) {
        try {
            if (failure != null) {
                // The task is failing anyway: start no upload it would only strand.
                staged.completeExceptionally(new IOException("not staged: an earlier staging failed"));
                return;
            }
            staged.complete(stager.stage(object, manifest.k()));
        } catch (Throwable t) {
            synchronized (bytes) {
                if (failure == null) {
                    failure = new Failure(object.key(), manifest.k(), manifest.queue(), t);
                }
            }
            staged.completeExceptionally(t);
        } finally {
            release(object.body().length);
        }
    }

    /**
     * Waits for every window handed over since the last call and returns their committables in
     * the order handed over; throws the first staging failure instead, handing none.
     */
    List<WindowCommittable> awaitAll() throws IOException, InterruptedException {
        List<WindowCommittable> ready = new ArrayList<>(pending.size());
        for (Pending window : pending) {
            List<StagedObject> staged = new ArrayList<>(window.objects().size());
            for (CompletableFuture<StagedObject> object : window.objects()) {
                try {
                    staged.add(object.get());
                } catch (ExecutionException e) {
                    throwIfFailed();
                    throw new IOException("could not stage an object of window " + window.manifest().k(), e.getCause());
                }
            }
            ready.add(new WindowCommittable(window.manifest(), staged, window.checkpoint()));
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
            throw new IOException("could not stage object " + f.key() + " of window " + f.k() + " of queue '" + f.queue()
                    + "' (" + f.cause() + "): the job restarts from its last checkpoint and stages the window again;"
                    + " if this repeats, check that the lake root is reachable and writable", f.cause());
        }
    }

    /** Stops the upload threads; an upload still running is abandoned (a stranded staging, see README-sink.md). */
    @Override
    public void close() {
        uploads.shutdownNow();
    }
}
