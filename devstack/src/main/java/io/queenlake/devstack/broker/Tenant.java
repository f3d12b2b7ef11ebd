package io.queenlake.devstack.broker;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** One tenant's world: its queues and its own KV store. Another tenant's queues are invisible here. */
final class Tenant {

    static final String DEFAULT_ID = "00000000-0000-0000-0000-000000000001";

    private final String id;
    private final Map<String, BrokerQueue> queues = new ConcurrentHashMap<>();
    private final KvStore kv = new KvStore();

    Tenant(String id) {
        this.id = id;
    }

    String id() {
        return id;
    }

    BrokerQueue queue(String name) {
        return queues.get(name);
    }

    void add(BrokerQueue queue) {
        queues.putIfAbsent(queue.name(), queue);
    }

    List<BrokerQueue> queuesInCreationOrder() {
        List<BrokerQueue> out = new ArrayList<>(queues.values());
        out.sort(Comparator.comparingLong(BrokerQueue::createdSeq));
        return out;
    }

    KvStore kv() {
        return kv;
    }
}
