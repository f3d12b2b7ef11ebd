package io.queenlake.source.testutils;

import io.queenlake.broker.client.BrokerHealth;
import io.queenlake.broker.client.ChangedPage;
import io.queenlake.broker.client.ChangedQuery;
import io.queenlake.broker.client.FetchRequest;
import io.queenlake.broker.client.FetchedPartition;
import io.queenlake.broker.client.KvAnswer;
import io.queenlake.broker.client.KvOp;
import io.queenlake.broker.client.OffsetAnswer;
import io.queenlake.broker.client.OffsetQuery;
import io.queenlake.broker.client.PushItem;
import io.queenlake.broker.client.PushResult;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.client.QueueOptions;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A real client passed through unchanged, for tests that count or observe some calls: override
 * only the routes a test watches, and call {@code super} to reach the broker.
 */
public abstract class ForwardingQueenClient implements QueenClient {

    private final QueenClient real;

    protected ForwardingQueenClient(QueenClient real) {
        this.real = real;
    }

    @Override
    public String broker() {
        return real.broker();
    }

    @Override
    public List<FetchedPartition> fetch(FetchRequest request) {
        return real.fetch(request);
    }

    @Override
    public CompletableFuture<List<FetchedPartition>> fetchAsync(FetchRequest request) {
        return real.fetchAsync(request);
    }

    @Override
    public List<OffsetAnswer> fetchOffsets(List<OffsetQuery> queries) {
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
