package io.queenlake.job.sink.committer;

import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.client.QueenException;
import io.queenlake.broker.kv.ObservedIntent;
import io.queenlake.broker.kv.ObservedPointer;
import io.queenlake.broker.kv.UnreadableDocumentException;
import io.queenlake.broker.kv.CommitPointers;
import io.queenlake.broker.kv.Intents;
import io.queenlake.job.iceberg.QueueTables;
import io.queenlake.job.metrics.LakeMetrics;
import io.queenlake.job.sink.CrashPoint;
import io.queenlake.job.sink.LakeSinkConfig;
import io.queenlake.job.sink.SinkThreads;
import io.queenlake.job.sink.committable.WindowCommittable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.runtime.execution.SuppressRestartsException;

/**
 * The commit half of the sink, run after a checkpoint completed. Queues are independent, so each
 * queue's windows of one call are committed on their own thread by the {@link QueueCommitter}
 * (per queue strictly in {@code k} order, one window at a time: intent, objects, manifest, pointer,
 * checkpoint object), and the
 * call returns only when every queue's run ended. A window the pointer already covers with the
 * same objects is signalled already committed (as Iceberg's committer does) after its objects are
 * proven complete.
 *
 * <p>Assumptions, as Iceberg's committer lists them: one writer per queue (the source's lease),
 * windows of one queue reach one committer subtask in {@code k} order (the window operator is
 * keyed by queue and the committer follows the writer), and the truth is the KV pointer, never
 * Flink state. A pointer moved by anyone else fails the job for good (no restart can heal it);
 * retriable bucket and broker failures are retried later, and a later window of the same queue
 * never overtakes an earlier one. Any other failure of a queue (a refused pointer, a missing
 * object) fails the task once every queue's run ended.
 */
public final class LakeCommitter implements Committer<WindowCommittable> {

    private static final long FIRST_BACKOFF_MS = 100;
    private static final long MAX_BACKOFF_MS = 2_000;

    private final LakeSinkConfig config;
    private final QueueCommitter queues;
    private final CommitPointers pointers;
    private final Intents intents;
    private final ExecutorService queueThreads;
    private final ExecutorService bucketThreads;
    private final Optional<QueueTables> tables;

    public LakeCommitter(LakeSinkConfig config, LakeMetrics metrics) throws IOException {
        this(config, metrics, config.newClient());
    }

    /** With a given broker client: tests wrap a real one to see the order of the KV calls. */
    LakeCommitter(LakeSinkConfig config, LakeMetrics metrics, QueenClient client) throws IOException {
        this.config = config;
        this.pointers = new CommitPointers(client, config.sinkName());
        this.intents = new Intents(client, config.sinkName());
        // Each queue's run mostly waits on the bucket and the KV: as many threads as queues committed at once.
        this.queueThreads = SinkThreads.pool(config.commitConcurrency(), "lake-committer-" + config.sinkName() + "-queue");
        this.bucketThreads = SinkThreads.pool(config.commitConcurrency(), "lake-committer-" + config.sinkName() + "-bucket");
        this.tables = config.catalog().map(link -> new QueueTables(link, config.sinkName(), config.tenant(),
                config.writerSettings().align(), key -> config.pathOf(key).toString()));
        this.queues = new QueueCommitter(config, metrics, pointers, intents, new LakeObjects(config), bucketThreads, tables);
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
        Map<String, QueueCommitter.Observed> read = readAll(new ArrayList<>(byQueue.keySet()));
        Map<String, CompletableFuture<CommitStep>> runs = new LinkedHashMap<>();
        for (Map.Entry<String, List<CommitRequest<WindowCommittable>>> queue : byQueue.entrySet()) {
            List<CommitRequest<WindowCommittable>> inOrder = queue.getValue();
            inOrder.sort(Comparator.comparingLong(r -> r.getCommittable().k()));
            Optional<QueueCommitter.Observed> observed = Optional.ofNullable(read.get(queue.getKey()));
            runs.put(queue.getKey(), byQueue.size() == 1
                    ? CompletableFuture.completedFuture(queues.commit(queue.getKey(), inOrder, observed))
                    : CompletableFuture.supplyAsync(() -> queues.commit(queue.getKey(), inOrder, observed), queueThreads));
        }
        SuppressRestartsException fenced = null;
        RuntimeException failed = null;
        int retries = -1;
        for (Map.Entry<String, CompletableFuture<CommitStep>> run : runs.entrySet()) {
            CommitStep last;
            try {
                last = run.getValue().join();
            } catch (CompletionException e) {
                failed = failed != null ? failed : asRuntime(e.getCause());
                continue;
            }
            if (last instanceof CommitStep.Fenced f) {
                fenced = fenced != null ? fenced : new SuppressRestartsException(f.failure());
            } else if (last instanceof CommitStep.Retry) {
                retries = Math.max(retries, byQueue.get(run.getKey()).stream()
                        .mapToInt(CommitRequest::getNumberOfRetries).max().orElse(0));
            }
        }
        // A fenced queue stops the job for good, whatever happened to the others.
        if (fenced != null) {
            throw fenced;
        }
        if (failed != null) {
            throw failed;
        }
        if (retries >= 0) {
            Thread.sleep(Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS << Math.min(retries, 10)));
        }
    }

    /**
     * Every queue's pointer and intent of this call, in KV batches of up to 256 keys: two calls for
     * a round of up to 256 queues instead of two per queue. When a batch fails (the broker, or a
     * document that does not decode) each queue reads its own, so one queue's unreadable pointer
     * stops only that queue.
     */
    private Map<String, QueueCommitter.Observed> readAll(List<String> names) {
        if (names.size() < 2) {
            return Map.of();
        }
        try {
            Map<String, ObservedPointer> pointersNow = pointers.readAll(names);
            Map<String, ObservedIntent> intentsNow = intents.readAll(names);
            Map<String, QueueCommitter.Observed> read = new HashMap<>();
            for (String queue : names) {
                read.put(queue, new QueueCommitter.Observed(pointersNow.get(queue), intentsNow.get(queue)));
            }
            return read;
        } catch (QueenException | UnreadableDocumentException e) {
            return Map.of();
        }
    }

    private static RuntimeException asRuntime(Throwable cause) {
        if (cause instanceof Error error) {
            throw error;
        }
        return cause instanceof RuntimeException r ? r : new IllegalStateException(cause);
    }

    @Override
    public void close() throws IOException {
        queueThreads.shutdownNow();
        bucketThreads.shutdownNow();
        if (tables.isPresent()) {
            tables.get().close();
        }
    }
}
