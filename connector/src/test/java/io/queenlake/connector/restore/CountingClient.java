package io.queenlake.connector.restore;

import io.queenlake.broker.client.KvAnswer;
import io.queenlake.broker.client.KvOp;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.source.testutils.ForwardingQueenClient;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** A real client that counts its KV calls, so a test can tell a cached read from a broker call. */
final class CountingClient extends ForwardingQueenClient {

    private final AtomicInteger kvCalls;

    CountingClient(QueenClient real, AtomicInteger kvCalls) {
        super(real);
        this.kvCalls = kvCalls;
    }

    @Override
    public KvAnswer kv(List<KvOp> ops) {
        kvCalls.incrementAndGet();
        return super.kv(ops);
    }
}
