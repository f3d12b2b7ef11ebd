package io.queenlake.devstack.broker;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;

/** A queue of one tenant: its live partition incarnations by name and in creation order, and its retention. */
final class BrokerQueue {

    private final String name;
    private final long createdSeq;
    private final Map<String, PartitionLog> byName = new ConcurrentHashMap<>();
    private final ConcurrentSkipListMap<Long, PartitionLog> byPid = new ConcurrentSkipListMap<>();
    private volatile RetentionOptions retention = RetentionOptions.NONE;

    BrokerQueue(String name, long createdSeq) {
        this.name = name;
        this.createdSeq = createdSeq;
    }

    String name() {
        return name;
    }

    long createdSeq() {
        return createdSeq;
    }

    RetentionOptions retention() {
        return retention;
    }

    void configure(RetentionOptions options) {
        this.retention = options;
    }

    /** The partition's live incarnation, or null when it was never written or was deleted. */
    PartitionLog partition(String partition) {
        return byName.get(partition);
    }

    void add(PartitionLog log) {
        PartitionLog old = byName.put(log.name(), log);
        if (old != null) {
            byPid.remove(old.pid());
        }
        byPid.put(log.pid(), log);
    }

    void remove(String partition) {
        PartitionLog old = byName.remove(partition);
        if (old != null) {
            byPid.remove(old.pid());
        }
    }

    Collection<PartitionLog> partitions() {
        return byPid.values();
    }

    /** Up to {@code limit} partitions created after pid {@code afterPid} and written at or after {@code sinceMicros}, in creation order. */
    List<PartitionLog> page(long afterPid, long sinceMicros, int limit) {
        List<PartitionLog> out = new ArrayList<>(Math.min(limit, 64));
        for (PartitionLog p : byPid.tailMap(afterPid, false).values()) {
            if (p.lastWriteAt() >= sinceMicros) {
                out.add(p);
                if (out.size() >= limit) {
                    break;
                }
            }
        }
        return out;
    }
}
