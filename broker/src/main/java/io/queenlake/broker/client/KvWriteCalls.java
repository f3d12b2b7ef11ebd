package io.queenlake.broker.client;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Makes one KV call of many puts. None is {@code required}, so each keeps its own {@code expect}
 * and a lost precondition loses that put alone ({@code applied:false} with the winner), where
 * {@code required} would roll back the puts of every other queue in the call.
 */
final class KvWriteCalls implements CallStream.Call<KvOp.Put, KvResult> {

    private final QueenClient client;
    private final AtomicLong calls = new AtomicLong();
    private final AtomicLong ops = new AtomicLong();

    KvWriteCalls(QueenClient client) {
        this.client = client;
    }

    @Override
    public List<KvResult> make(List<KvOp.Put> puts) {
        calls.incrementAndGet();
        ops.addAndGet(puts.size());
        KvAnswer answer = client.kv(List.copyOf(puts));
        if (answer instanceof KvAnswer.Results results) {
            return results.results();
        }
        throw new IllegalStateException("the broker at " + client.broker() + " rolled back a KV call of "
                + puts.size() + " puts, none of them required, with " + answer
                + ": check that QUEEN_URL points at a Queen broker");
    }

    long calls() {
        return calls.get();
    }

    long ops() {
        return ops.get();
    }
}
