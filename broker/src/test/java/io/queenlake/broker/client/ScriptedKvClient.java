package io.queenlake.broker.client;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * A client whose only route is KV, answered in memory: every put applies (or throws what the test
 * scripted for that call), a getMany answers the rows the test stored. It records each call's ops
 * and thread, and can hold the first call in flight until the test lets it go, so the test decides
 * what queues up meanwhile.
 */
final class ScriptedKvClient implements QueenClient {

    /** One call as made. */
    record Call(List<KvOp> ops, String thread, boolean daemon) {}

    final List<Call> calls = new CopyOnWriteArrayList<>();
    final Map<String, KvRow> stored = new ConcurrentHashMap<>();
    /** Per call, in order: a failure to throw instead of answering; no entry answers. */
    final ConcurrentLinkedQueue<Optional<RuntimeException>> failures = new ConcurrentLinkedQueue<>();
    /** Per getMany, in order: how many of its keys to leave out as truncated. */
    final ConcurrentLinkedQueue<Integer> truncations = new ConcurrentLinkedQueue<>();
    final CountDownLatch firstCallStarted = new CountDownLatch(1);
    private final CountDownLatch firstCallReleased;
    private final AtomicLong versions = new AtomicLong(100);

    private ScriptedKvClient(boolean holdFirstCall) {
        firstCallReleased = new CountDownLatch(holdFirstCall ? 1 : 0);
    }

    static ScriptedKvClient answering() {
        return new ScriptedKvClient(false);
    }

    /** Holds the first call in flight until {@link #releaseFirstCall}. */
    static ScriptedKvClient holdingFirstCall() {
        return new ScriptedKvClient(true);
    }

    void releaseFirstCall() {
        firstCallReleased.countDown();
    }

    void store(String ns, String key, String json) {
        stored.put(ns + "/" + key, new KvRow(key, RawJson.of(json), versions.incrementAndGet(), OptionalLong.empty(), OptionalLong.empty()));
    }

    @Override
    public String broker() {
        return "http://scripted";
    }

    @Override
    public KvAnswer kv(List<KvOp> ops) {
        calls.add(new Call(List.copyOf(ops), Thread.currentThread().getName(), Thread.currentThread().isDaemon()));
        firstCallStarted.countDown();
        try {
            firstCallReleased.await();
        } catch (InterruptedException e) {
            throw QueenException.interrupted(broker(), Route.KV, e);
        }
        Optional<RuntimeException> failure = failures.poll();
        if (failure != null && failure.isPresent()) {
            throw failure.get();
        }
        List<KvResult> results = new ArrayList<>();
        for (KvOp op : ops) {
            results.add(op instanceof KvOp.Put put ? written(put) : gotMany((KvOp.GetMany) op));
        }
        return new KvAnswer.Results(results);
    }

    private KvResult written(KvOp.Put put) {
        long version = versions.incrementAndGet();
        stored.put(put.ns() + "/" + put.key(), new KvRow(put.key(), put.value(), version, OptionalLong.empty(), OptionalLong.empty()));
        return new KvResult.Written(true, put.key(), Optional.of(put.value()), version, Optional.empty());
    }

    private KvResult gotMany(KvOp.GetMany many) {
        Integer truncate = truncations.poll();
        int answered = many.keys().size() - (truncate == null ? 0 : truncate);
        List<KvRow> rows = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (String key : many.keys().subList(0, answered)) {
            KvRow row = stored.get(many.ns() + "/" + key);
            if (row == null) {
                missing.add(key);
            } else {
                rows.add(new KvRow(key, row.value(), row.version(), row.expiresAtMicros(), row.updatedAtMicros()));
            }
        }
        return new KvResult.GotMany(rows, missing, answered < many.keys().size());
    }

    private static <T> T notScripted() {
        throw new UnsupportedOperationException("only KV is scripted");
    }

    @Override
    public List<FetchedPartition> fetch(FetchRequest request) {
        return notScripted();
    }

    @Override
    public CompletableFuture<List<FetchedPartition>> fetchAsync(FetchRequest request) {
        return notScripted();
    }

    @Override
    public List<OffsetAnswer> fetchOffsets(List<OffsetQuery> queries) {
        return notScripted();
    }

    @Override
    public ChangedPage partitionsChanged(List<ChangedQuery> queries) {
        return notScripted();
    }

    @Override
    public List<String> queues() {
        return notScripted();
    }

    @Override
    public List<PushResult> push(List<PushItem> items) {
        return notScripted();
    }

    @Override
    public void configure(String queue, QueueOptions options) {
        notScripted();
    }

    @Override
    public BrokerHealth health() {
        return notScripted();
    }
}
