package io.queenlake.source.reader;

import io.queenlake.broker.client.FetchRequest;
import io.queenlake.broker.client.FetchedPartition;
import io.queenlake.broker.client.OffsetAnswer;
import io.queenlake.broker.client.OffsetQuery;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.source.testutils.ForwardingQueenClient;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** The real HTTP client, counting the fetch calls and entries the reader makes through it. */
final class CountingQueenClient extends ForwardingQueenClient {
    final AtomicInteger fetchCalls = new AtomicInteger();
    final AtomicLong fetchEntries = new AtomicLong();
    final AtomicInteger offsetCalls = new AtomicInteger();

    CountingQueenClient(QueenClient real) {
        super(real);
    }

    @Override
    public List<FetchedPartition> fetch(FetchRequest request) {
        count(request);
        return super.fetch(request);
    }

    @Override
    public CompletableFuture<List<FetchedPartition>> fetchAsync(FetchRequest request) {
        count(request);
        return super.fetchAsync(request);
    }

    private void count(FetchRequest request) {
        fetchCalls.incrementAndGet();
        fetchEntries.addAndGet(request.entries().size());
    }

    @Override
    public List<OffsetAnswer> fetchOffsets(List<OffsetQuery> queries) {
        offsetCalls.incrementAndGet();
        return super.fetchOffsets(queries);
    }
}
