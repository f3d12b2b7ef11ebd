package io.queenlake.job.sink.committer;

import io.queenlake.format.manifest.Committed;
import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.model.Micros;
import io.queenlake.job.metrics.LakeMetrics;
import io.queenlake.job.sink.CrashPoint;
import io.queenlake.job.sink.LakeSinkConfig;
import io.queenlake.job.sink.committable.WindowCommittable;
import io.queenlake.source.client.QueenException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The commit half of the sink, run after a checkpoint completed: per queue, in {@code k} order,
 * decide from the KV pointer ({@link CommitDecision}), then act: (1) complete the staged objects,
 * (2) write the manifest stamped with {@code committedAt}, (3) move the pointer with one
 * conditional KV put, then write the checkpoint object when the window carries one. A window the
 * pointer already covers with the same objects is signalled already committed (as Iceberg's
 * committer does) after its objects are proven complete.
 *
 * <p>Assumptions, as Iceberg's committer lists them: one writer per queue (the source's lease),
 * windows of one queue reach one committer subtask in {@code k} order (the window operator is
 * keyed by queue and the committer follows the writer), and the truth is the KV pointer, never
 * Flink state. A pointer moved by anyone else fails the job for good (no restart can heal it);
 * retriable bucket and broker failures are retried later, and a later window of the same queue
 * never overtakes an earlier one.
 */
public final class LakeCommitter implements Committer<WindowCommittable> {

    private static final Logger LOG = LoggerFactory.getLogger(LakeCommitter.class);
    private static final long FIRST_BACKOFF_MS = 100;
    private static final long MAX_BACKOFF_MS = 2_000;

    private final LakeSinkConfig config;
    private final LakeMetrics metrics;
    private final PointerStore pointers;
    private final LakeObjects objects;

    public LakeCommitter(LakeSinkConfig config, LakeMetrics metrics) throws IOException {
        this.config = config;
        this.metrics = metrics;
        this.pointers = new PointerStore(config.newClient(), config.sinkName());
        this.objects = new LakeObjects(config);
    }

    /** What became of one window. */
    private sealed interface Step {
        record Done(ObservedPointer now) implements Step {}

        record Already() implements Step {}

        record Fenced(LakeFencedException failure) implements Step {}

        record Retry(Exception cause) implements Step {}
    }

    @Override
    public void commit(Collection<CommitRequest<WindowCommittable>> requests) throws InterruptedException {
        if (requests.isEmpty()) {
            return;
        }
        long highest = requests.stream().mapToLong(r -> r.getCommittable().k()).max().orElse(0);
        config.crashIfArmed(CrashPoint.AFTER_CHECKPOINT_BEFORE_COMMIT, highest);
        Map<String, List<CommitRequest<WindowCommittable>>> byQueue = new TreeMap<>();
        for (CommitRequest<WindowCommittable> r : requests) {
            byQueue.computeIfAbsent(r.getCommittable().queue(), q -> new ArrayList<>()).add(r);
        }
        LakeFencedException fenced = null;
        int retries = -1;
        boolean progressed = false;
        for (Map.Entry<String, List<CommitRequest<WindowCommittable>>> queue : byQueue.entrySet()) {
            List<CommitRequest<WindowCommittable>> inOrder = queue.getValue();
            inOrder.sort(Comparator.comparingLong(r -> r.getCommittable().k()));
            Step last = commitQueue(queue.getKey(), inOrder);
            if (last instanceof Step.Fenced f) {
                fenced = f.failure();
            } else if (last instanceof Step.Retry) {
                retries = Math.max(retries, inOrder.stream().mapToInt(CommitRequest::getNumberOfRetries).max().orElse(0));
            }
            progressed = true;
        }
        if (progressed) {
            refreshLag();
        }
        if (fenced != null) {
            throw new SuppressRestartsException(fenced);
        }
        if (retries >= 0) {
            Thread.sleep(Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS << Math.min(retries, 10)));
        }
    }

    /** Commits one queue's windows in order; returns the step that ended the queue's run. */
    private Step commitQueue(String queue, List<CommitRequest<WindowCommittable>> inOrder) {
        ObservedPointer observed;
        try {
            observed = pointers.read(queue);
        } catch (QueenException e) {
            Step step = onBrokerFailure(queue, inOrder.get(0).getCommittable(), e);
            inOrder.forEach(CommitRequest::retryLater);
            return step;
        }
        Step step = null;
        for (int i = 0; i < inOrder.size(); i++) {
            CommitRequest<WindowCommittable> request = inOrder.get(i);
            step = commitOne(request.getCommittable(), observed);
            if (step instanceof Step.Done done) {
                observed = done.now();
            } else if (step instanceof Step.Already) {
                request.signalAlreadyCommitted();
            } else {
                if (step instanceof Step.Fenced f) {
                    LOG.error(f.failure().getMessage());
                    request.signalFailedWithKnownReason(f.failure());
                } else {
                    LOG.warn("window queue={} k={} will be retried: {}", queue, request.getCommittable().k(),
                            ((Step.Retry) step).cause().toString());
                    request.retryLater();
                }
                // A later window never overtakes an earlier one.
                inOrder.subList(i + 1, inOrder.size()).forEach(CommitRequest::retryLater);
                return step;
            }
        }
        return step;
    }

    private Step commitOne(WindowCommittable window, ObservedPointer observed) {
        try {
            CommitDecision decision = decide(window, observed);
            if (decision == CommitDecision.FOREIGN_WRITER) {
                return new Step.Fenced(fenced(window, observed));
            }
            if (decision == CommitDecision.ALREADY_COMMITTED) {
                return finishAlreadyCommitted(window);
            }
            objects.complete(window);
            config.crashIfArmed(CrashPoint.BETWEEN_OBJECTS_AND_MANIFEST, window.k());
            Manifest stamped = publishedManifest(window);
            config.crashIfArmed(CrashPoint.BETWEEN_MANIFEST_AND_POINTER, window.k());
            Committed next = pointerOf(stamped, objects.manifestKey(window));
            PointerStore.Move move = pointers.move(window.queue(), observed, next);
            if (!move.applied()) {
                // Someone wrote the pointer since this job read it. Only the very pointer this job
                // meant to write is ours (a duplicate of this commit); anything else is a foreign writer,
                // even past k with this job's own manifest k, which it wrote moments ago.
                ObservedPointer now = pointers.read(window.queue());
                return now.pointer().filter(p -> p.k() == next.k() && p.tEnd() == next.tEnd()
                                && p.manifest().equals(next.manifest())).isPresent()
                        ? finishAlreadyCommitted(window)
                        : new Step.Fenced(fenced(window, now));
            }
            config.crashIfArmed(CrashPoint.AFTER_POINTER, window.k());
            if (window.checkpoint().isPresent()) {
                objects.writeCheckpoint(window, window.checkpoint().get());
            }
            metrics.recordCommitted(stamped);
            LOG.info("window committed queue={} k={} records={} bytes={}", window.queue(), window.k(),
                    stamped.records(), stamped.bytes());
            return new Step.Done(move.now());
        } catch (IOException e) {
            return new Step.Retry(e);
        } catch (QueenException e) {
            return onBrokerFailure(window.queue(), window, e);
        }
    }

    private CommitDecision decide(WindowCommittable window, ObservedPointer observed) throws IOException {
        Optional<Manifest> manifestK = CommitDecision.needsManifest(observed.pointer(), window.k())
                ? objects.readManifest(window)
                : Optional.empty();
        return CommitDecision.of(observed.pointer(), manifestK, window);
    }

    private Step finishAlreadyCommitted(WindowCommittable window) throws IOException {
        objects.complete(window);
        if (window.checkpoint().isPresent()) {
            objects.writeCheckpoint(window, window.checkpoint().get());
        }
        metrics.recordAlreadyCommitted(window.queue(), window.k(), window.tEnd());
        LOG.info("window already committed queue={} k={}", window.queue(), window.k());
        return new Step.Already();
    }

    /** The manifest found from an earlier attempt of this same window, or a freshly stamped one, written. */
    private Manifest publishedManifest(WindowCommittable window) throws IOException {
        Optional<Manifest> earlier = objects.readManifest(window).filter(m -> m.isStamped()
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

    private LakeFencedException fenced(WindowCommittable window, ObservedPointer observed) {
        String pointer = observed.pointer()
                .map(p -> "at k=" + p.k() + " (tEnd " + Micros.render(p.tEnd()) + ")")
                .orElse(observed.version() == 0 ? "absent" : "unreadable");
        String holder;
        try {
            holder = pointers.holder(window.queue());
        } catch (QueenException e) {
            holder = "an unknown lease holder (the lease could not be read: " + e.getMessage() + ")";
        }
        return new LakeFencedException("queue '" + window.queue() + "' is fenced: its commit pointer "
                + pointers.committedKey(window.queue()) + " is " + pointer + ", " + holder
                + ", so another writer moved it and this job stops without writing window k=" + window.k()
                + "; stop the other writer or give this job its own sink name (QUEEN_S3_SINK).");
    }

    private Step onBrokerFailure(String queue, WindowCommittable window, QueenException e) {
        if (e.retriable()) {
            return new Step.Retry(e);
        }
        throw new IllegalStateException("could not commit window k=" + window.k() + " of queue '" + queue
                + "' because the broker refused the commit pointer: " + e.getMessage(), e);
    }

    private void refreshLag() {
        try {
            metrics.recordSafeTime(pointers.safeTimeMicros());
        } catch (QueenException e) {
            LOG.debug("could not read the broker's safeTime for lagSeconds: {}", e.getMessage());
        }
    }

    @Override
    public void close() {}
}
