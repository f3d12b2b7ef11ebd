package io.queenlake.devstack.broker;

import java.io.IOException;
import java.util.List;

/** {@code POST /api/v1/kv}: one batch of KV operations in the caller's tenant, answered index-aligned. */
final class KvRoute implements Route {

    private final BrokerState state;

    KvRoute(BrokerState state) {
        this.state = state;
    }

    @Override
    public void handle(Call call, Reply reply) throws IOException {
        List<KvOperation> ops = KvOperation.parseBatch(call.body());
        KvBatch.Answer answer = state.write(change -> new KvBatch(call.tenant(), ops).run(change));
        answer.renderTo(reply.json(200));
        reply.send();
    }
}
