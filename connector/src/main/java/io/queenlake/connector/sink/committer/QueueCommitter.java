package io.queenlake.connector.sink.committer;

import io.queenlake.source.QueenSourceOptions;
import io.queenlake.broker.client.BrokerOutage;
import io.queenlake.broker.client.QueenException;
import io.queenlake.broker.kv.CommitPointers;
import io.queenlake.broker.kv.Intents;
import io.queenlake.broker.kv.ObservedIntent;
import io.queenlake.broker.kv.ObservedPointer;
import io.queenlake.broker.kv.UnreadableDocumentException;
import io.queenlake.format.manifest.Committed;
import io.queenlake.format.manifest.Intent;
import io.queenlake.format.manifest.Manifest;
import io.queenlake.connector.sink.table.CatalogUnavailableException;
import io.queenlake.connector.sink.table.TableRefusedException;
import io.queenlake.connector.sink.table.WindowTables;
import io.queenlake.connector.metrics.LakeMetrics;
import io.queenlake.connector.sink.CrashPoint;
import io.queenlake.connector.sink.LakeSinkConfig;
import io.queenlake.connector.sink.committable.WindowCommittable;
import io.queenlake.source.TokenRefusal;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import io.queenlake.broker.client.KvBatcher;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.connector.sink.SinkThreads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits one queue's windows of one commit call, strictly in {@code k} order and one window at a
 * time: decide from the KV pointer ({@link CommitDecision}), then (1) write the window's intent
 * ({@code k}, bounds, format, compression, layout, writer) with {@code expect}, (2) complete the
 * staged objects, (3) write the manifest stamped with {@code committedAt}, (4) move the pointer
 * with one conditional KV put, then write the checkpoint object when the window carries one. No
 * object of window {@code k + 1} is published before window {@code k}'s pointer moved and
 * {@code k + 1}'s intent is in KV, so at most one window per queue is ever visible without its
 * manifest, and the intent names it: the next run, whatever its settings, rebuilds exactly that
 * window under the same keys (docs/ARCHITECTURE.md "Restore"). Manifest {@code k} is read only
 * where something other than this committer may have written it ({@link #manifestToRead}). One
 * instance serves every queue, each queue's run on its lane's thread ({@link CommitLanes}); between
 * runs it keeps, per queue, which window it committed last and the pointer and intent as it left
 * them (its steady state, where neither a manifest nor the KV is read).
 */
final class QueueCommitter implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(QueueCommitter.class);

    private final LakeSinkConfig config;
    private final LakeMetrics metrics;
    private final KvBatcher kv;
    private final CommitPointers pointers;
    private final Intents intents;
    private final LakeObjects objects;
    private final ExecutorService bucketIo;
    private final Optional<WindowTables> tables;
    private final BrokerOutage brokerOutage;
    private final ForeignWrites foreign;
    /** Per queue, the newest window this instance committed or found committed: the steady state, where no manifest is read. */
    private final Map<String, Long> committedHere = new ConcurrentHashMap<>();
    /** Per queue, the pointer and intent after this instance's last run that ended well (removed while a run goes on). */
    private final Map<String, Observed> lastSeen = new ConcurrentHashMap<>();

    private QueueCommitter(LakeSinkConfig config, LakeMetrics metrics, KvBatcher kv, CommitPointers pointers,
            Intents intents, LakeObjects objects, ExecutorService bucketIo, Optional<WindowTables> tables) {
        this.config = config;
        this.tables = tables;
        this.metrics = metrics;
        this.kv = kv;
        this.pointers = pointers;
        this.intents = intents;
        this.objects = objects;
        this.bucketIo = bucketIo;
        this.foreign = new ForeignWrites(pointers, objects);
        this.brokerOutage = new BrokerOutage("the committer of sink '" + config.sinkName() + "'", config.brokerUrl());
    }

    /**
     * A committer of the sink's queues speaking to the broker through {@code client}, its lanes'
     * KV reads and writes sharing calls (writes at most {@code kvWriteCallsPerSecond}), with its
     * own bucket threads (the manifest reads it starts ahead) and, with a catalog, the queues' tables.
     */
    static QueueCommitter open(LakeSinkConfig config, LakeMetrics metrics, QueenClient client,
            double kvWriteCallsPerSecond) throws IOException {
        LakeObjects objects = new LakeObjects(config);
        ExecutorService bucketIo = SinkThreads.pool(config.commitConcurrency(),
                "lake-committer-" + config.sinkName() + "-bucket");
        Optional<WindowTables> tables = config.tables().map(factory -> factory.open(new WindowTables.Lake(
                config.sinkName(), config.tenant(), config.writerSettings().align(), key -> config.pathOf(key).toString())));
        KvBatcher kv = new KvBatcher(client, kvWriteCallsPerSecond);
        return new QueueCommitter(config, metrics, kv, new CommitPointers(client, config.sinkName(), kv),
                new Intents(client, config.sinkName(), kv), objects, bucketIo, tables);
    }

    /** Ends the bucket threads and the catalog connection. */
    @Override
    public void close() throws IOException {
        kv.close();
        bucketIo.shutdownNow();
        if (tables.isPresent()) {
            tables.get().close();
        }
    }

    /** A queue's pointer and intent as this committer last read or wrote them. */
    private record Observed(ObservedPointer pointer, ObservedIntent intent) {}

    /**
     * Commits the queue's windows in order and returns what became of each window walked, in order:
     * every step but the last is {@link CommitStep.Done} or {@link CommitStep.Already}; a
     * {@link CommitStep.Retry} or {@link CommitStep.Fenced} ends the run at its window, and the
     * windows after it are not touched. The pointer and intent are read once per queue and then
     * followed from this committer's own writes (their {@code expect} still fences every write), so
     * a queue in steady state costs no KV read; any failure forgets them, so the next run reads again.
     */
    List<CommitStep> commit(String queue, List<WindowCommittable> inOrder) {
        List<CommitStep> steps = new ArrayList<>(inOrder.size());
        Observed seen = lastSeen.remove(queue);
        ObservedIntent[] intent = new ObservedIntent[1];
        ObservedPointer observed;
        try {
            observed = seen != null ? seen.pointer() : pointers.read(queue);
            intent[0] = seen != null ? seen.intent() : intents.read(queue);
            brokerOutage.answered();
        } catch (QueenException e) {
            steps.add(onBrokerFailure(queue, inOrder.get(0), e));
            return steps;
        } catch (UnreadableDocumentException e) {
            LOG.error(e.getMessage());
            steps.add(new CommitStep.Fenced(e));
            return steps;
        }
        PreparedWindows prepared = PreparedWindows.none();
        try {
            for (int i = 0; i < inOrder.size(); i++) {
                WindowCommittable window = inOrder.get(i);
                CommitStep step;
                try {
                    CommitDecision decision = decide(window, observed);
                    if (decision == CommitDecision.COMMIT && !prepared.has(window)) {
                        prepared.settle();
                        List<WindowCommittable> expected = ExpectedCommits.of(observed.pointer(),
                                inOrder.subList(i, inOrder.size()));
                        prepared = new PreparedWindows(objects, expected, manifestToRead(queue, expected, intent[0]),
                                bucketIo);
                    }
                    step = act(decision, window, observed, intent, prepared);
                } catch (IOException e) {
                    // Reported once per outage by LakeObjects' watchdog.
                    step = new CommitStep.Retry(e);
                } catch (QueenException e) {
                    step = onBrokerFailure(queue, window, e);
                } catch (UnreadableDocumentException | TableRefusedException e) {
                    step = new CommitStep.Fenced(e);
                } catch (CatalogUnavailableException e) {
                    metrics.recordTableAppendFailed(queue);
                    step = new CommitStep.Retry(e);
                }
                steps.add(step);
                if (step instanceof CommitStep.Done done) {
                    committedHere.put(queue, window.k());
                    observed = done.now();
                } else if (step instanceof CommitStep.Already) {
                    committedHere.merge(queue, window.k(), Math::max);
                } else {
                    report(window, step);
                    return steps;
                }
            }
            lastSeen.put(queue, new Observed(observed, intent[0]));
            return steps;
        } finally {
            // No bucket work of this run goes on once it returned (or threw).
            prepared.settle();
        }
    }

    private static void report(WindowCommittable window, CommitStep step) {
        if (step instanceof CommitStep.Fenced f) {
            LOG.error(f.failure().getMessage());
            return;
        }
        Exception cause = ((CommitStep.Retry) step).cause();
        // A bucket, broker or catalog outage has its one WARN (S3Outages, BrokerOutage, CatalogOutages), not one
        // per retry.
        if (cause instanceof IOException || cause instanceof QueenException
                || cause instanceof CatalogUnavailableException) {
            LOG.debug("window queue={} k={} will be retried: {}", window.queue(), window.k(), cause.toString());
        } else {
            LOG.warn("window queue={} k={} will be retried: {}", window.queue(), window.k(), cause.toString());
        }
    }

    /**
     * Which of the expected windows' manifests must be read before they commit: the first one's,
     * unless this committer itself committed the window before it and the intent does not name it.
     * Then nobody but this job can have written manifest {@code k} (the start found none beyond the
     * pointer, and the lease and the intent's precondition keep other writers of this sink off), so
     * a window in steady state costs no read; the first window of a queue after a start or a
     * restore, and one whose earlier attempt the intent names, are read and checked
     * ({@link ForeignWrites#manifestTaken}). Later expected windows follow this committer's own commits.
     */
    private OptionalLong manifestToRead(String queue, List<WindowCommittable> expected, ObservedIntent intent) {
        if (expected.isEmpty()) {
            return OptionalLong.empty();
        }
        long k = expected.get(0).k();
        boolean attemptedBefore = intent.intent().filter(i -> i.k() == k).isPresent();
        Long here = committedHere.get(queue);
        return !attemptedBefore && here != null && here == k - 1 ? OptionalLong.empty() : OptionalLong.of(k);
    }

    private CommitStep act(CommitDecision decision, WindowCommittable window, ObservedPointer observed,
            ObservedIntent[] intent, PreparedWindows prepared) throws IOException, CatalogUnavailableException {
        if (decision == CommitDecision.FOREIGN_WRITER) {
            if (inTheLakeBehindThePointer(window, observed)) {
                return finishAlreadyCommitted(window);
            }
            return new CommitStep.Fenced(foreign.pointerMoved(window, observed, intent[0]));
        }
        if (decision == CommitDecision.ALREADY_COMMITTED) {
            return finishAlreadyCommitted(window);
        }
        FoundManifest earlier = prepared.await(window);
        Optional<LakeFencedException> taken = foreign.manifestTaken(window, earlier, intent[0].intent(), observed);
        if (taken.isPresent()) {
            return new CommitStep.Fenced(taken.get());
        }
        Optional<LakeFencedException> intentLost = writeIntent(window, intent);
        if (intentLost.isPresent()) {
            return new CommitStep.Fenced(intentLost.get());
        }
        config.crashIfArmed(CrashPoint.AFTER_INTENT, window.k());
        objects.complete(window);
        config.crashIfArmed(CrashPoint.BETWEEN_OBJECTS_AND_MANIFEST, window.k());
        Manifest stamped = publishedManifest(window, earlier.manifest());
        config.crashIfArmed(CrashPoint.BETWEEN_MANIFEST_AND_POINTER, window.k());
        if (tables.isPresent()) {
            // After the manifest, before the pointer: the pointer moves only once the table holds the window.
            long started = System.nanoTime();
            boolean appended = tables.get().append(stamped, objects.manifestKey(window));
            metrics.recordTableAppend(window.queue(), window.k(), appended, (System.nanoTime() - started) / 1_000_000L);
            config.crashIfArmed(CrashPoint.BETWEEN_TABLE_AND_POINTER, window.k());
        }
        Committed next = pointerOf(stamped, objects.manifestKey(window));
        CommitPointers.Move move = pointers.move(window.queue(), observed, next);
        if (!move.applied()) {
            // Someone wrote the pointer since this job read it. Only the very pointer this job
            // meant to write is ours (a duplicate of this commit); anything else is a foreign writer,
            // even past k with this job's own manifest k, which it wrote moments ago.
            ObservedPointer now = pointers.read(window.queue());
            return now.pointer().filter(p -> p.k() == next.k() && p.tEnd() == next.tEnd()
                            && p.manifest().equals(next.manifest())).isPresent()
                    ? finishAlreadyCommitted(window)
                    : new CommitStep.Fenced(foreign.pointerMoved(window, now, intents.read(window.queue())));
        }
        config.crashIfArmed(CrashPoint.AFTER_POINTER, window.k());
        if (window.checkpoint().isPresent()) {
            objects.writeCheckpoint(window, window.checkpoint().get());
        }
        metrics.recordCommitted(stamped);
        LOG.info("window committed queue={} k={} records={} bytes={}", window.queue(), window.k(),
                stamped.records(), stamped.bytes());
        return new CommitStep.Done(move.now());
    }

    /**
     * A window the pointer is more than one behind, whose manifest {@code k} in the bucket is this
     * very window, stamped: committed before the KV forgot it (a broker that lost its KV, a pointer
     * deleted by hand; a savepoint or checkpoint restored after that still carries the window).
     * The lake is the truth, so it is already committed, not written again; the first window
     * beyond the lake stops the queue ({@link ForeignWrites#pointerMoved}).
     */
    private boolean inTheLakeBehindThePointer(WindowCommittable window, ObservedPointer observed) throws IOException {
        if (observed.pointer().map(Committed::k).orElse(0L) >= window.k() - 1) {
            return false;
        }
        Optional<Manifest> there = objects.readManifest(window);
        boolean inTheLake = there.filter(m -> m.isStamped() && m.describesSameWindowAs(window.manifest())
                && m.namesSameObjectsAs(window.manifest())).isPresent();
        if (inTheLake) {
            LOG.warn("queue '{}': window k={} is in the lake (manifest {}) while its commit pointer {} is {}: the KV"
                    + " forgot it; it is not written again", window.queue(), window.k(), objects.manifestKey(window),
                    pointers.committedKey(window.queue()), ForeignWrites.pointerState(observed));
        }
        return inTheLake;
    }

    /**
     * Step 1: puts the window's intent with {@code expect} = the intent version last read or
     * written. A lost precondition is this job's own earlier put when the intent now stored is the
     * very one it meant to write, and another writer otherwise.
     */
    private Optional<LakeFencedException> writeIntent(WindowCommittable window, ObservedIntent[] intent) {
        Intent next = intentOf(window);
        intent[0].intent().filter(i -> i.k() == next.k() && !i.equals(next)).ifPresent(i -> LOG.warn(
                "queue '{}': the intent {} names window k={} as [{}, {}) {} {}, this job commits [{}, {}) {} {}",
                window.queue(), intents.intentKey(window.queue()), i.k(), i.tStart(), i.tEnd(), i.format(),
                i.compression(), next.tStart(), next.tEnd(), next.format(), next.compression()));
        Intents.Write write = intents.write(window.queue(), intent[0], next);
        if (write.applied()) {
            intent[0] = write.now();
            return Optional.empty();
        }
        ObservedIntent now = intents.read(window.queue());
        if (now.intent().filter(next::equals).isPresent()) {
            intent[0] = now;
            return Optional.empty();
        }
        return Optional.of(new LakeFencedException("queue '" + window.queue() + "' is fenced: its intent "
                + intents.intentKey(window.queue()) + " was written by another writer ("
                + now.intent().map(i -> "window k=" + i.k()).orElse("absent") + " at version " + now.version()
                + ", " + pointers.holder(window.queue()) + "), so this job stops without publishing window k="
                + window.k() + "; stop the other writer or give this job its own sink name ("
                + QueenSourceOptions.SINK.key() + ")."));
    }

    static Intent intentOf(WindowCommittable window) {
        Manifest m = window.manifest();
        return new Intent(m.k(), m.tStart(), m.tEnd(), m.format(), m.compression(), m.layout(), m.writer());
    }

    private CommitDecision decide(WindowCommittable window, ObservedPointer observed) throws IOException {
        Optional<Manifest> manifestK = CommitDecision.needsManifest(observed.pointer(), window.k())
                ? objects.readManifest(window)
                : Optional.empty();
        return CommitDecision.of(observed.pointer(), manifestK, window);
    }

    private CommitStep finishAlreadyCommitted(WindowCommittable window) throws IOException {
        objects.complete(window);
        if (window.checkpoint().isPresent()) {
            objects.writeCheckpoint(window, window.checkpoint().get());
        }
        metrics.recordAlreadyCommitted(window.queue(), window.k(), window.tEnd());
        LOG.info("window already committed queue={} k={}", window.queue(), window.k());
        return new CommitStep.Already();
    }

    /** The manifest an earlier attempt of this same window wrote, or a freshly stamped one, written. */
    private Manifest publishedManifest(WindowCommittable window, Optional<Manifest> found) throws IOException {
        Optional<Manifest> earlier = found.filter(m -> m.isStamped()
                && m.describesSameWindowAs(window.manifest()) && m.namesSameObjectsAs(window.manifest()));
        if (earlier.isPresent()) {
            return earlier.get();
        }
        Manifest stamped = window.manifest().withCommittedAt(System.currentTimeMillis());
        objects.writeManifest(stamped);
        return stamped;
    }

    private static Committed pointerOf(Manifest m, String manifestKey) {
        return new Committed(m.k(), m.tEnd(), manifestKey, m.records(), m.bytes(), m.committedAtMicros() / 1000);
    }

    private CommitStep onBrokerFailure(String queue, WindowCommittable window, QueenException e) {
        if (e.retriable()) {
            brokerOutage.failed(e);
            return new CommitStep.Retry(e);
        }
        // A refused token stops the job for good (TokenRefusal); any other refusal fails the task.
        throw TokenRefusal.terminal(new IllegalStateException("could not commit window k=" + window.k() + " of queue '"
                + queue + "' because the broker refused the commit pointer: " + e.getMessage(), e));
    }
}
