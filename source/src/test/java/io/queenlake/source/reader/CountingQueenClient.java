package io.queenlake.source.reader;

import io.queenlake.source.client.BrokerHealth;
import io.queenlake.source.client.ChangedPage;
import io.queenlake.source.client.ChangedQuery;
import io.queenlake.source.client.FetchRequest;
import io.queenlake.source.client.FetchedPartition;
import io.queenlake.source.client.KvAnswer;
import io.queenlake.source.client.KvOp;
import io.queenlake.source.client.OffsetAnswer;
import io.queenlake.source.client.OffsetQuery;
import io.queenlake.source.client.PushItem;
import io.queenlake.source.client.PushResult;
import io.queenlake.source.client.QueenClient;
import io.queenlake.source.client.QueueOptions;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** The real HTTP client, counting the fetch calls and entries the reader makes through it. */
final class CountingQueenClient implements QueenClient {

    private final QueenClient real;
    final AtomicInteger fetchCalls = new AtomicInteger();
    final AtomicLong fetchEntries = new AtomicLong();
    final AtomicInteger offsetCalls = new AtomicInteger();

    CountingQueenClient(QueenClient real) {
        this.real = real;
    }

    @Override
    public String broker() {
        return real.broker();
    }

    @Override
    public List<FetchedPartition> fetch(FetchRequest request) {
        count(request);
        return real.fetch(request);
    }

    @Override
    public CompletableFuture<List<FetchedPartition>> fetchAsync(FetchRequest request) {
        count(request);
        return real.fetchAsync(request);
    }

    private void count(FetchRequest request) {
        fetchCalls.incrementAndGet();
        fetchEntries.addAndGet(request.entries().size());
    }

    @Override
    public List<OffsetAnswer> fetchOffsets(List<OffsetQuery> queries) {
        offsetCalls.incrementAndGet();
        return real.fetchOffsets(queries);
    }

    @Override
    public ChangedPage partitionsChanged(List<ChangedQuery> queries) {
        return real.partitionsChanged(queries);
    }

    @Override
    public KvAnswer kv(List<KvOp> ops) {
        return real.kv(ops);
    }

    @Override
    public List<String> queues() {
        return real.queues();
    }

    @Override
    public List<PushResult> push(List<PushItem> items) {
        return real.push(items);
    }

    @Override
    public void configure(String queue, QueueOptions options) {
        real.configure(queue, options);
    }

    @Override
    public BrokerHealth health() {
        return real.health();
    }
}
