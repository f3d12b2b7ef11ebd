package io.queenlake.source.reader;

import io.queenlake.broker.client.FetchRequest;
import io.queenlake.broker.client.KvAnswer;
import io.queenlake.broker.client.KvOp;
import io.queenlake.broker.client.FetchedPartition;
import io.queenlake.broker.client.OffsetAnswer;
import io.queenlake.broker.client.OffsetQuery;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.source.testutils.ForwardingQueenClient;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The real HTTP client, counting the fetch calls and entries the reader makes through it, per
 * queue too, and its KV calls; {@link #refuse} sends the fetch calls asking for some queue to another broker (a
 * {@link RefusingBroker}) instead.
 */
final class CountingQueenClient extends ForwardingQueenClient {
    final AtomicInteger fetchCalls = new AtomicInteger();
    /** Fetch calls that asked for at least one partition of the queue, by queue. */
    final Map<String, AtomicInteger> callsWithQueue = new ConcurrentHashMap<>();
    private volatile Set<String> refusedQueues = Set.of();
    private volatile QueenClient refusing;
    final AtomicLong fetchEntries = new AtomicLong();
    final AtomicInteger offsetCalls = new AtomicInteger();
    final AtomicInteger kvCalls = new AtomicInteger();

    CountingQueenClient(QueenClient real) {
        super(real);
    }

    @Override
    public KvAnswer kv(List<KvOp> ops) {
        kvCalls.incrementAndGet();
        return super.kv(ops);
    }

    @Override
    public List<FetchedPartition> fetch(FetchRequest request) {
        count(request);
        return super.fetch(request);
    }

    @Override
    public CompletableFuture<List<FetchedPartition>> fetchAsync(FetchRequest request) {
        count(request);
        QueenClient other = refusing;
        if (other != null && request.entries().stream().anyMatch(e -> refusedQueues.contains(e.queue()))) {
            return other.fetchAsync(request);
        }
        return super.fetchAsync(request);
    }

    /** From now on, fetch calls asking for any of {@code queues} go to {@code broker}; none stops it. */
    void refuse(QueenClient broker, String... queues) {
        refusedQueues = Set.of(queues);
        refusing = queues.length == 0 ? null : broker;
    }

    int callsWith(String queue) {
        AtomicInteger calls = callsWithQueue.get(queue);
        return calls == null ? 0 : calls.get();
    }

    private void count(FetchRequest request) {
        fetchCalls.incrementAndGet();
        fetchEntries.addAndGet(request.entries().size());
        request.entries().stream().map(e -> e.queue()).distinct()
                .forEach(q -> callsWithQueue.computeIfAbsent(q, x -> new AtomicInteger()).incrementAndGet());
    }

    @Override
    public List<OffsetAnswer> fetchOffsets(List<OffsetQuery> queries) {
        offsetCalls.incrementAndGet();
        return super.fetchOffsets(queries);
    }
}
