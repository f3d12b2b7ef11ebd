package io.queenlake.source.enumerator.start;

import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.kv.CommitPointers;
import io.queenlake.broker.kv.Intents;
import io.queenlake.broker.kv.ObservedIntent;
import io.queenlake.broker.kv.ObservedPointer;
import io.queenlake.format.manifest.CheckpointDoc;
import io.queenlake.format.manifest.Committed;
import io.queenlake.format.manifest.Intent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.flink.annotation.Internal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads, for queues about to start, the commit pointer and the intent from KV (in batches), checks
 * that the lake holds no manifest beyond them ({@link ManifestTrail}: a queue whose lake is ahead
 * of its pointer is refused, never started from a pointer that would write over committed
 * windows), and where each partition continues after the pointer ({@link ResumePositionsReader}:
 * the newest bucket checkpoint at or below it and the manifests since), or, without a pointer, an
 * open intent of window 1. The bucket reads of all queues run together on this loader's pool.
 * Blocking I/O: runs off the coordinator thread. Broker failures propagate as
 * {@code QueenException}; an undecodable pointer or intent is an
 * {@link io.queenlake.broker.kv.UnreadableDocumentException} (the job must not guess where a queue continues).
 */
@Internal
public final class StartPlanLoader implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(StartPlanLoader.class);
    /**
     * Each check is a HEAD of 20-50 ms on a real bucket and a broker of thousands of queues starts
     * them all at once: 8 threads took 47-52 s for 5,000 queues at 30 ms. The threads end when idle.
     */
    private static final int READ_THREADS = 64;
    /** How long one call waits for the lake checks, on the worker thread that the lease rounds share. */
    static final long CHECK_WAIT_MS = 500;

    /** A check not answered within this long is one WARN naming the queue and the lake: the bucket is silent. */
    static final long SLOW_CHECK_MS = 10_000;

    /**
     * A lake check of a queue, for the window {@code accounted} its pointer and intent account for,
     * started at {@code startedNanos}; {@code warned} once it was reported slow.
     */
    private static final class InFlight {
        final long accounted;
        final CompletableFuture<Optional<LakeAhead>> check;
        final long startedNanos = System.nanoTime();
        volatile long answeredNanos;
        boolean warned;

        InFlight(long accounted, CompletableFuture<Optional<LakeAhead>> check) {
            this.accounted = accounted;
            this.check = check;
            check.whenComplete((answer, failure) -> answeredNanos = System.nanoTime());
        }

        /** Answered long enough ago (a queue whose lease went elsewhere, back later) to be checked anew. */
        boolean stale() {
            return check.isDone() && answeredNanos != 0 && System.nanoTime() - answeredNanos > SLOW_CHECK_MS * 1_000_000L;
        }

        long ageMillis() {
            return (System.nanoTime() - startedNanos) / 1_000_000L;
        }
    }

    private final CommitPointers pointers;
    private final Intents intents;
    private final Optional<ExecutorService> reads;
    private final Optional<ResumePositionsReader> resume;
    private final Optional<ManifestTrail> trail;
    private final Map<String, InFlight> inFlight = new ConcurrentHashMap<>();
    private final LakeRoot root;

    /** {@code lakeRoot} null reads nothing from the bucket: a pointer then starts at its tEnd, unchecked. */
    public StartPlanLoader(QueenClient client, String sink, String tenant, String lakeRoot) {
        this.pointers = new CommitPointers(client, sink);
        this.intents = new Intents(client, sink);
        if (lakeRoot == null || lakeRoot.isBlank()) {
            this.root = null;
            this.reads = Optional.empty();
            this.resume = Optional.empty();
            this.trail = Optional.empty();
        } else {
            this.root = LakeRoot.parse(lakeRoot);
            ThreadPoolExecutor pool = new ThreadPoolExecutor(READ_THREADS, READ_THREADS, 30, TimeUnit.SECONDS,
                    new LinkedBlockingQueue<>(), r -> {
                        Thread t = new Thread(r, "queen-source-lake-read");
                        t.setDaemon(true);
                        return t;
                    });
            // Only queues about to start read the bucket: the threads go away between starts.
            pool.allowCoreThreadTimeOut(true);
            this.reads = Optional.of(pool);
            this.resume = Optional.of(new ResumePositionsReader(this.root, tenant, pool));
            this.trail = Optional.of(new ManifestTrail(this.root, tenant));
        }
    }

    /**
     * The start plans of {@code queues}. The lake checks run on the pool; those started by this
     * call are waited for at most {@link #CHECK_WAIT_MS} (this runs on the worker thread the lease
     * rounds share), those still running from an earlier call not at all: a queue whose check has
     * not answered yet (the first S3 call of a JobManager starts the S3 file system, seconds) gets
     * {@link StartPlan#checking()}, and a later call takes up its answer.
     */
    public Map<String, StartPlan> load(List<String> queues) {
        Map<String, ObservedPointer> observed = pointers.readAll(queues);
        Map<String, ObservedIntent> intentsRead = intents.readAll(queues);
        List<CompletableFuture<Optional<LakeAhead>>> started = new ArrayList<>();
        Map<String, CompletableFuture<Optional<LakeAhead>>> checks = lakeChecks(observed, intentsRead, started);
        // Only checks started now are waited for: a discovery run that waited again for the same slow
        // check every interval would keep the worker thread (and so the lease rounds) busy for good.
        awaitAtMost(started, CHECK_WAIT_MS);
        Map<String, StartPlan> plans = new LinkedHashMap<>();
        Map<String, CompletableFuture<Map<String, CheckpointDoc.Position>>> reading = new LinkedHashMap<>();
        observed.forEach((queue, o) -> {
            CompletableFuture<Optional<LakeAhead>> check = checks.get(queue);
            if (check != null && !check.isDone()) {
                warnIfSlow(queue);
                plans.put(queue, StartPlan.checking());
                return;
            }
            InFlight done = inFlight.remove(queue);
            if (done != null && done.warned) {
                LOG.info("queue '{}': the bucket answered the check of its manifests against its commit pointer after {}"
                        + " s", queue, done.ageMillis() / 1000);
            }
            Optional<StartPlan.Refusal> refusal = refusal(queue, check);
            if (refusal.isPresent()) {
                plans.put(queue, StartPlan.refused(refusal.get()));
                return;
            }
            // Every started queue's bucket reads at once: a start without state over many queues is one wait.
            o.pointer().ifPresent(committed -> reading.put(queue, resume.map(r -> r.after(queue, committed.k()))
                    .orElse(CompletableFuture.completedFuture(Map.of()))));
        });
        observed.forEach((queue, o) -> {
            if (!plans.containsKey(queue)) {
                plans.put(queue, o.pointer().map(committed -> withPointer(queue, committed, reading.get(queue)))
                        .orElseGet(() -> noPointer(queue, intentsRead.get(queue))));
            }
        });
        return plans;
    }

    /** One WARN per check that has not answered for {@link #SLOW_CHECK_MS}: a bucket outage before the queue starts. */
    private void warnIfSlow(String queue) {
        InFlight running = inFlight.get(queue);
        if (running != null && !running.warned && running.ageMillis() >= SLOW_CHECK_MS) {
            running.warned = true;
            LOG.warn("queue '{}' waits: the bucket at {} has not answered the check of its manifests against its commit"
                    + " pointer for {} s (the S3 file system retries inside the call); one line when it answers", queue,
                    root.fileSystemRoot(), running.ageMillis() / 1000);
        }
    }

    private static void awaitAtMost(Collection<CompletableFuture<Optional<LakeAhead>>> checks, long millis) {
        try {
            CompletableFuture.allOf(checks.toArray(CompletableFuture[]::new)).get(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while checking the lake against the commit pointers", e);
        } catch (ExecutionException | TimeoutException e) {
            // Each check's own outcome is read below; the slow ones are taken up by a later call.
        }
    }

    /**
     * Whether each queue's lake is ahead of its pointer, checked on the pool, all at once, off the
     * caller's thread (an already-started queue's check, for a restore with Flink state). Empty
     * for every queue when there is no lake root.
     */
    public CompletableFuture<Map<String, Optional<StartPlan.Refusal>>> refusals(List<String> queues) {
        if (reads.isEmpty()) {
            return CompletableFuture.completedFuture(Map.of());
        }
        return CompletableFuture.supplyAsync(() -> freshChecks(pointers.readAll(queues), intents.readAll(queues)),
                reads.get()).thenCompose(checks -> CompletableFuture.allOf(checks.values().toArray(CompletableFuture[]::new))
                        .handle((done, failed) -> {
                            Map<String, Optional<StartPlan.Refusal>> refusals = new LinkedHashMap<>();
                            checks.forEach((queue, check) -> refusals.put(queue, refusal(queue, check)));
                            return refusals;
                        }));
    }

    /**
     * Each queue's lake check, started on the pool, or the one still running from an earlier call
     * for the same pointer and intent. Empty when there is no lake root.
     */
    private Map<String, CompletableFuture<Optional<LakeAhead>>> lakeChecks(
            Map<String, ObservedPointer> observed, Map<String, ObservedIntent> intentsRead,
            List<CompletableFuture<Optional<LakeAhead>>> started) {
        Map<String, CompletableFuture<Optional<LakeAhead>>> checks = new LinkedHashMap<>();
        if (trail.isEmpty()) {
            return checks;
        }
        observed.forEach((queue, o) -> {
            Optional<Intent> intent = intentsRead.get(queue).intent();
            long accounted = ManifestTrail.accountedFor(o.pointer(), intent);
            InFlight running = inFlight.get(queue);
            // A check of other pointer and intent, or one whose answer waited too long to be taken, is made anew.
            if (running == null || running.accounted != accounted || running.stale()) {
                running = new InFlight(accounted, startCheck(queue, o.pointer(), intent));
                inFlight.put(queue, running);
                started.add(running.check);
            }
            checks.put(queue, running.check);
        });
        return checks;
    }

    /** Checks started now, for queues that already have a split (never shared with {@link #load}). */
    private Map<String, CompletableFuture<Optional<LakeAhead>>> freshChecks(
            Map<String, ObservedPointer> observed, Map<String, ObservedIntent> intentsRead) {
        Map<String, CompletableFuture<Optional<LakeAhead>>> checks = new LinkedHashMap<>();
        observed.forEach((queue, o) -> checks.put(queue, startCheck(queue, o.pointer(), intentsRead.get(queue).intent())));
        return checks;
    }

    /** One queue's lake check against its pointer and intent, on the pool. */
    private CompletableFuture<Optional<LakeAhead>> startCheck(String queue, Optional<Committed> pointer,
            Optional<Intent> intent) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return trail.get().check(queue, pointers.committedKey(queue), pointer, intent);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, reads.get());
    }

    private static Optional<StartPlan.Refusal> refusal(String queue, CompletableFuture<Optional<LakeAhead>> check) {
        if (check == null) {
            return Optional.empty();
        }
        try {
            return check.get().map(ahead -> new StartPlan.Refusal(ahead.describe(), true));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while checking the lake of queue '" + queue + "'", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() instanceof UncheckedIOException io ? io.getCause() : e.getCause();
            return Optional.of(new StartPlan.Refusal("queue '" + queue + "' waits: its manifests in the bucket could"
                    + " not be checked against its commit pointer (" + cause + "); check the bucket's endpoint and"
                    + " credentials, it is checked again shortly", false));
        }
    }

    /** A queue never committed, unless a crashed run left the intent of its window 1 open. */
    private StartPlan noPointer(String queue, ObservedIntent intent) {
        return intent.openAfter(Optional.empty()).map(open -> {
            LOG.info("queue {}: no commit pointer, but the intent of window 1 [{}, {}) is open: reading from its start",
                    queue, open.tStart(), open.tEnd());
            return StartPlan.openIntent(open.tStart());
        }).orElseGet(StartPlan::noPointer);
    }

    private StartPlan withPointer(String queue, Committed committed,
            CompletableFuture<Map<String, CheckpointDoc.Position>> reading) {
        Map<String, CheckpointDoc.Position> positions;
        try {
            positions = reading.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the resume positions of queue '" + queue + "'", e);
        } catch (ExecutionException e) {
            // Nothing here is needed for correctness: the pointer alone still starts the queue exactly at tEnd.
            LOG.warn("queue {}: could not read its resume positions from the bucket ({}); starting from the commit"
                    + " pointer's tEnd", queue, e.getCause().toString());
            positions = Map.of();
        }
        LOG.info("queue {}: commit pointer k={} tEnd={}; {} resume positions",
                queue, committed.k(), committed.tEnd(), positions.size());
        return new StartPlan(Optional.of(committed), positions);
    }

    /** Stops the bucket reads still queued (a cancelled or failing enumerator must not wait for them). */
    @Override
    public void close() {
        reads.ifPresent(ExecutorService::shutdownNow);
    }
}
