package io.queenlake.devstack.broker;

import io.queenlake.devstack.broker.JournalEntry.KvWritten;
import io.queenlake.devstack.broker.JournalEntry.LogTrimmed;
import io.queenlake.devstack.broker.JournalEntry.PartitionCreated;
import io.queenlake.devstack.broker.JournalEntry.PartitionDeleted;
import io.queenlake.devstack.broker.JournalEntry.QueueConfigured;
import io.queenlake.devstack.broker.JournalEntry.QueueCreated;
import io.queenlake.devstack.broker.JournalEntry.RecordAppended;
import io.queenlake.devstack.broker.JournalEntry.Sequences;
import io.queenlake.devstack.broker.JournalEntry.TransactionRemembered;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The broker's applied state: tenants, their queues and KV, the clock and the sequences. Every
 * change is a {@link JournalEntry} applied by {@link #apply}; writers run one at a time through
 * {@link #write}, which journals their entries and only then publishes their stamp as safeTime.
 * Readers (fetch, discovery) never take the write lock.
 */
final class BrokerState {

    /** A command's view while it holds the write lock: apply entries, take a stamp, draw sequence numbers. */
    final class Change {
        private final List<JournalEntry> entries = new ArrayList<>();
        private long stamp;

        void apply(JournalEntry entry) {
            BrokerState.this.apply(entry);
            entries.add(entry);
        }

        /** The stamp of this write, taken on first use; every record of the write shares it. */
        long stamp() {
            if (stamp == 0) {
                stamp = clock.nextStamp();
            }
            return stamp;
        }

        long nextKvVersion() {
            return ++lastKvVersion;
        }

        long nextPid() {
            return ++lastPid;
        }

        BrokerState state() {
            return BrokerState.this;
        }
    }

    /** A command that runs under the write lock. */
    interface Command<T> {
        T run(Change change);
    }

    private final BrokerClock clock;
    private final WriteSignal signal = new WriteSignal();
    private final ReentrantLock writeLock = new ReentrantLock();
    private final Map<String, Tenant> tenants = new ConcurrentHashMap<>();
    private long lastKvVersion;
    private long lastPid;
    private long lastQueueSeq;
    private Journal journal;

    private final boolean renderPayloads;

    BrokerState(BrokerClock clock) {
        this(clock, false);
    }

    /** @param renderPayloads answer payloads as the raft broker renders them ({@link RenderedPayload}) */
    BrokerState(BrokerClock clock, boolean renderPayloads) {
        this.clock = clock;
        this.renderPayloads = renderPayloads;
    }

    BrokerClock clock() {
        return clock;
    }

    WriteSignal signal() {
        return signal;
    }

    void attach(Journal journal) {
        this.journal = journal;
    }

    /** Closes the journal once no write is in flight; later writes stay in memory only. */
    void detachJournal() throws IOException {
        writeLock.lock();
        try {
            if (journal != null) {
                journal.close();
                journal = null;
            }
        } finally {
            writeLock.unlock();
        }
    }

    /** Runs {@code command} alone, journals what it applied, then makes it visible through safeTime. */
    <T> T write(Command<T> command) throws IOException {
        writeLock.lock();
        try {
            Change change = new Change();
            T result = command.run(change);
            if (change.entries.isEmpty() && change.stamp == 0) {
                return result;
            }
            change.entries.add(new Sequences(clock.lastStamp(), lastKvVersion, lastPid, lastQueueSeq));
            if (journal != null) {
                journal.append(change.entries);
            }
            if (change.stamp != 0) {
                clock.publish(change.stamp);
            }
            signal.bump();
            return result;
        } finally {
            writeLock.unlock();
        }
    }

    /** The tenant, or null when it never wrote anything. */
    Tenant tenant(String id) {
        return tenants.get(id);
    }

    BrokerQueue queue(String tenant, String queue) {
        Tenant t = tenants.get(tenant);
        return t == null ? null : t.queue(queue);
    }

    List<Tenant> tenants() {
        return new ArrayList<>(tenants.values());
    }

    /** Applies one change; used alike by live writes and by a journal replay. */
    void apply(JournalEntry entry) {
        if (entry instanceof QueueCreated e) {
            Tenant t = tenants.computeIfAbsent(e.tenant(), Tenant::new);
            if (t.queue(e.queue()) == null) {
                t.add(new BrokerQueue(e.queue(), ++lastQueueSeq));
            }
        } else if (entry instanceof QueueConfigured e) {
            existingQueue(e.tenant(), e.queue()).configure(e.retention());
        } else if (entry instanceof PartitionCreated e) {
            existingQueue(e.tenant(), e.queue())
                    .add(new PartitionLog(e.partition(), e.id(), e.pid(), e.logStart(), e.lastWriteAt()));
            lastPid = Math.max(lastPid, e.pid());
        } else if (entry instanceof RecordAppended e) {
            existingPartition(e.tenant(), e.queue(), e.partition())
                    .append(StoredRecord.of(e.offset(), e.stamp(), e.transactionId(), e.payload(), renderPayloads));
            restoreStamp(e.stamp());
        } else if (entry instanceof TransactionRemembered e) {
            existingPartition(e.tenant(), e.queue(), e.partition())
                    .rememberTrimmed(e.transactionId(), e.offset(), e.stamp());
        } else if (entry instanceof PartitionDeleted e) {
            existingQueue(e.tenant(), e.queue()).remove(e.partition());
        } else if (entry instanceof LogTrimmed e) {
            existingPartition(e.tenant(), e.queue(), e.partition()).trimTo(e.logStart());
        } else if (entry instanceof KvWritten e) {
            tenants.computeIfAbsent(e.tenant(), Tenant::new).kv().put(e.ns(), e.key(), e.row());
            if (e.row() != null) {
                lastKvVersion = Math.max(lastKvVersion, e.row().version());
                restoreStamp(e.row().updatedAtMicros());
            }
        } else if (entry instanceof Sequences e) {
            restoreStamp(e.lastStamp());
            lastKvVersion = Math.max(lastKvVersion, e.lastKvVersion());
            lastPid = Math.max(lastPid, e.lastPid());
            lastQueueSeq = Math.max(lastQueueSeq, e.lastQueueSeq());
        }
    }

    /** The whole state as the fewest entries that rebuild it, for {@link Journal#rewrite}. */
    List<JournalEntry> snapshot() {
        writeLock.lock();
        try {
            List<JournalEntry> out = new ArrayList<>();
            long now = clock.now();
            for (Tenant t : tenants.values()) {
                for (BrokerQueue q : t.queuesInCreationOrder()) {
                    out.add(new QueueCreated(t.id(), q.name()));
                    out.add(new QueueConfigured(t.id(), q.name(), q.retention()));
                    for (PartitionLog p : q.partitions()) {
                        PartitionLog.Bounds b = p.bounds();
                        out.add(new PartitionCreated(t.id(), q.name(), p.name(), p.id(), p.pid(), b.logStart(),
                                p.lastWriteAt()));
                        p.trimmedTransactions().forEach((tx, seen) -> out.add(new TransactionRemembered(
                                t.id(), q.name(), p.name(), tx, seen.offset(), seen.stamp())));
                        for (StoredRecord r : p.storedRecords()) {
                            out.add(new RecordAppended(t.id(), q.name(), p.name(), r.offset(), r.stamp(),
                                    r.transactionId(), r.payload()));
                        }
                    }
                }
                t.kv().forEachLive(now, (ns, key, row) -> out.add(new KvWritten(t.id(), ns, key, row)));
            }
            out.add(new Sequences(clock.lastStamp(), lastKvVersion, lastPid, lastQueueSeq));
            return out;
        } finally {
            writeLock.unlock();
        }
    }

    private void restoreStamp(long stamp) {
        if (stamp > clock.lastStamp()) {
            clock.restore(stamp);
        }
    }

    private BrokerQueue existingQueue(String tenant, String queue) {
        BrokerQueue q = queue(tenant, queue);
        if (q == null) {
            throw new IllegalStateException("journal names queue " + queue + " of tenant " + tenant + " before creating it");
        }
        return q;
    }

    private PartitionLog existingPartition(String tenant, String queue, String partition) {
        PartitionLog p = existingQueue(tenant, queue).partition(partition);
        if (p == null) {
            throw new IllegalStateException("journal names partition " + partition + " of queue " + queue
                    + " before creating it");
        }
        return p;
    }
}
