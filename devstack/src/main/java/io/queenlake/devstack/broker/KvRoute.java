package io.queenlake.devstack.broker;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@code POST /api/v1/kv}: one batch of KV operations in the caller's tenant, answered index-aligned.
 * Optionally slow (every call waits a latency first, on its own thread) and budgeted as Queen
 * budgets it: a call holding any write takes a token of its tenant's {@link KvWriteBudget}; over
 * budget it is answered 429 with {@code Retry-After} and changes nothing. Reads are never refused.
 */
final class KvRoute implements Route {

    private final BrokerState state;
    private final long latencyMs;
    /** Null for no budget. */
    private final KvWriteBudget budget;

    KvRoute(BrokerState state) {
        this(state, 0, null);
    }

    /** Calls served (a refused one is not), by whether they held a write: what a client's KV work costs in calls. */
    private final LongAdder writeCalls = new LongAdder();
    private final LongAdder readCalls = new LongAdder();

    KvRoute(BrokerState state, long latencyMs, KvWriteBudget budget) {
        this.state = state;
        this.latencyMs = latencyMs;
        this.budget = budget;
    }

    long writeCalls() {
        return writeCalls.sum();
    }

    long readCalls() {
        return readCalls.sum();
    }

    @Override
    public void handle(Call call, Reply reply) throws IOException {
        if (latencyMs > 0) {
            try {
                Thread.sleep(latencyMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("the dev broker is stopping", e);
            }
        }
        List<KvOperation> ops = KvOperation.parseBatch(call.body());
        if (budget != null && ops.stream().anyMatch(op -> op.kind().writes())) {
            long waitMs = budget.take(call.tenant());
            if (waitMs > 0) {
                long retryAfterSeconds = Math.max(1, (waitMs + 999) / 1000);
                reply.header("Retry-After", Long.toString(retryAfterSeconds));
                throw new WireError(429, "rate_limited", "the tenant's KV write budget is spent; retry after "
                        + retryAfterSeconds + " s", "kv_rate_limited", "write calls over the budget change nothing");
            }
        }
        (ops.stream().anyMatch(op -> op.kind().writes()) ? writeCalls : readCalls).increment();
        KvBatch.Answer answer = state.write(change -> new KvBatch(call.tenant(), ops).run(change));
        answer.renderTo(reply.json(200));
        reply.send();
    }
}
