package io.queenlake.broker.kv;

import io.queenlake.broker.client.KvAnswer;
import io.queenlake.broker.client.KvExpect;
import io.queenlake.broker.client.KvExpiry;
import io.queenlake.broker.client.KvOp;
import io.queenlake.broker.client.KvResult;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.client.BrokerOutage;
import io.queenlake.broker.client.QueenException;
import io.queenlake.broker.client.RawJson;
import io.queenlake.format.manifest.LeaseDoc;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Owns this enumerator's leases {@code s3:<sink>:<queue>:lease} and its presence row
 * {@code s3:<sink>:node=<instance>} (docs/ARCHITECTURE.md "Leases and fencing").
 *
 * <p>Each {@link #tick()} (every TTL/3, and once more when a listing adds queues; off the
 * coordinator thread) is one KV round: refresh every
 * held lease with {@code expect} = the held version, try every free or due queue with
 * {@code putIfAbsent}, and write the presence row (which also moves an idle broker's safeTime). A
 * queue held by another instance is tried again after a TTL. A refresh that loses its
 * precondition is a verdict, not an error: {@link LeaseLostException}. Ticks and the release are
 * serialised on this object, so a refresh never races the release.
 *
 * <p>A lease of this same instance name with another incarnation is taken over only once it has
 * stopped moving: its version unchanged for {@link #staleAfterMs()} (one and a half refresh
 * intervals, TTL/2) on this keeper's clock, so at the second round after it was first seen. A live
 * incarnation refreshes it every interval, so a lease that stands still was left by an earlier
 * life of this job (a restart whose predecessor could not release it); one that moves belongs to
 * a second job run under the same name and is left to it, as another instance's would be.
 * Until the verdict the queue is pending (a restart does not run ahead of the queue it takes back).
 *
 * <p>It never decides what to read; it only says who holds what.
 */
public final class LeaseKeeper {

    private static final Logger LOG = LoggerFactory.getLogger(LeaseKeeper.class);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final QueenClient client;
    private final SinkKeys keys;
    private final String instance;
    /** One WARN per broker outage, not one per cut-short round. */
    private final BrokerOutage outage;
    private final String incarnation;
    private final long ttlMs;
    private final LongSupplier clockMs;
    private final long sinceMs;

    private final Map<String, LeaseSlot> slots = new HashMap<>();
    private volatile Set<String> wanted = Set.of();
    private long presenceVersion;
    private final Map<String, LeaseDoc.Progress> progress = new ConcurrentHashMap<>();
    private boolean closed;

    public LeaseKeeper(QueenClient client, SinkKeys keys, String instance, long ttlMs) {
        this(client, keys, instance, newIncarnation(), ttlMs, System::currentTimeMillis);
    }

    LeaseKeeper(QueenClient client, SinkKeys keys, String instance, String incarnation, long ttlMs, LongSupplier clockMs) {
        this.client = client;
        this.keys = keys;
        this.instance = instance;
        this.incarnation = incarnation;
        this.ttlMs = ttlMs;
        this.clockMs = clockMs;
        this.sinceMs = clockMs.getAsLong();
        this.outage = new BrokerOutage("the lease rounds of instance " + instance, client.broker());
    }

    /** 16 lowercase hex digits, new for every enumerator start. */
    static String newIncarnation() {
        return String.format("%016x", RANDOM.nextLong());
    }

    public String instance() {
        return instance;
    }

    public String incarnation() {
        return incarnation;
    }

    /** How often {@link #tick()} should run: TTL/3, at least 100 ms. */
    public long refreshIntervalMs() {
        return Math.max(100, ttlMs / 3);
    }

    /**
     * How long a lease of this instance name held by another incarnation must stand still before it
     * is taken over: one and a half refresh intervals. A live holder writes a new version every
     * interval, so it would have to miss a refresh by half an interval to look stopped.
     */
    public long staleAfterMs() {
        return refreshIntervalMs() + refreshIntervalMs() / 2;
    }

    /** The queues to hold from now on (any thread); a queue no longer wanted is released at the next tick. */
    public void want(Collection<String> queues) {
        wanted = Set.copyOf(queues);
    }

    /**
     * One lease round. Retriable broker failures end the round early and ride on the view; terminal
     * ones are thrown, as is {@link LeaseLostException}.
     */
    public synchronized LeaseView tick() {
        if (closed) {
            return view(Optional.empty());
        }
        long now = clockMs.getAsLong();
        Set<String> want = wanted;
        List<KvOp> ops = new ArrayList<>();
        List<String> opQueues = new ArrayList<>();
        ops.add(new KvOp.Put(SinkKeys.NAMESPACE, keys.presence(instance), doc(), ttl(), KvExpect.any(), false));
        opQueues.add(null);
        for (String queue : new LinkedHashSet<>(want)) {
            LeaseSlot slot = slots.computeIfAbsent(queue, q -> new LeaseSlot());
            if (slot.status.mine()) {
                ops.add(new KvOp.Put(SinkKeys.NAMESPACE, keys.lease(queue), doc(queue), ttl(), KvExpect.version(slot.version), false));
                opQueues.add(queue);
            } else if (slot.retryAtMs <= now) {
                ops.add(new KvOp.PutIfAbsent(SinkKeys.NAMESPACE, keys.lease(queue), doc(queue), ttl(), false));
                opQueues.add(queue);
            }
        }
        for (Map.Entry<String, LeaseSlot> e : slots.entrySet()) {
            if (!want.contains(e.getKey()) && e.getValue().status.mine()) {
                ops.add(new KvOp.Delete(SinkKeys.NAMESPACE, keys.lease(e.getKey()), KvExpect.version(e.getValue().version), false));
                opQueues.add(e.getKey());
            }
        }
        List<String> takeOver = new ArrayList<>();
        Map<String, Long> takeOverVersions = new HashMap<>();
        try {
            KvBatches.forEach(ops, (from, batch) -> {
                KvAnswer.Results results = results(batch);
                for (int i = 0; i < batch.size(); i++) {
                    apply(batch.get(i), opQueues.get(from + i), results.get(i), now, takeOver, takeOverVersions);
                }
            });
            takeOver(takeOver, takeOverVersions, now);
        } catch (QueenException e) {
            if (!e.retriable()) {
                throw e;
            }
            outage.failed(e);
            LOG.debug("lease round of instance {} cut short, retrying in {} ms: {}", instance, refreshIntervalMs(),
                    e.getMessage());
            return view(Optional.of(e));
        }
        outage.answered();
        slots.keySet().retainAll(want);
        return view(Optional.empty());
    }

    private void apply(KvOp op, String queue, KvResult result, long now, List<String> takeOver, Map<String, Long> versions) {
        if (queue == null) {
            KvResult.Written presence = (KvResult.Written) result;
            if (presence.applied()) {
                presenceVersion = presence.version();
            }
            return;
        }
        LeaseSlot slot = slots.get(queue);
        if (op instanceof KvOp.Delete) {
            slots.remove(queue);
            LOG.info("released the lease of queue '{}' (no longer mirrored)", queue);
            return;
        }
        KvResult.Written written = (KvResult.Written) result;
        if (op instanceof KvOp.Put) {
            if (written.applied()) {
                slot.version = written.version();
                return;
            }
            slot.status = LeaseStatus.PENDING;
            throw lost(queue, written);
        }
        if (written.applied()) {
            slot.mine(written.version());
            LOG.info("took the lease of queue '{}' as instance {} (incarnation {})", queue, instance, incarnation);
            return;
        }
        Optional<LeaseDoc> holder = holder(written);
        if (holder.isEmpty()) {
            slot.status = LeaseStatus.PENDING; // expired between the check and the answer: try again next tick
            return;
        }
        if (holder.get().instance().equals(instance)) {
            if (holder.get().incarnation().equals(incarnation)) {
                slot.mine(written.version()); // our own earlier try whose answer was lost
            } else if (slot.standsStill(written.version(), now, staleAfterMs())) {
                takeOver.add(queue);
                versions.put(queue, written.version());
            } else if (slot.moved) {
                heldBySameName(queue, slot, holder.get(), now);
            }
            return;
        }
        slot.forget();
        if (!slot.status.equals(LeaseStatus.heldBy(holder.get().instance()))) {
            LOG.info("queue '{}' is held by instance {}: not mirrored here; trying again every {} ms",
                    queue, holder.get().instance(), ttlMs);
        }
        slot.status = LeaseStatus.heldBy(holder.get().instance());
        slot.retryAtMs = now + ttlMs;
    }

    /**
     * A lease of this instance name whose version moved while this keeper watched it: another live
     * incarnation refreshes it, so it is left alone as another instance's lease would be.
     */
    private void heldBySameName(String queue, LeaseSlot slot, LeaseDoc holder, long now) {
        if (!slot.status.equals(LeaseStatus.heldBy(instance))) {
            LOG.warn("queue '{}' is held by instance {} (incarnation {}), the name this job runs under (incarnation {}),"
                    + " and that incarnation is alive (it refreshed the lease within {} ms): not mirrored here;"
                    + " two jobs share QUEEN_S3_INSTANCE={}: give each its own or leave it unset; trying again every {} ms",
                    queue, instance, holder.incarnation(), incarnation, staleAfterMs(), instance, ttlMs);
        }
        slot.status = LeaseStatus.heldBy(instance);
        slot.retryAtMs = now + ttlMs;
    }

    /**
     * Takes over, with {@code expect} = the version that stood still, the leases of this instance
     * name that an earlier incarnation stopped refreshing.
     */
    private void takeOver(List<String> queues, Map<String, Long> versions, long now) {
        if (queues.isEmpty()) {
            return;
        }
        List<KvOp> ops = new ArrayList<>(queues.size());
        for (String queue : queues) {
            ops.add(new KvOp.Put(SinkKeys.NAMESPACE, keys.lease(queue), doc(queue), ttl(), KvExpect.version(versions.get(queue)), false));
        }
        KvBatches.forEach(ops, (from, batch) -> {
            KvAnswer.Results results = results(batch);
            for (int i = 0; i < batch.size(); i++) {
                String queue = queues.get(from + i);
                KvResult.Written written = (KvResult.Written) results.get(i);
                LeaseSlot slot = slots.get(queue);
                if (written.applied()) {
                    slot.mine(written.version());
                    LOG.info("took over the lease of queue '{}' from an earlier incarnation of instance {}: it had not"
                            + " refreshed it for at least {} ms", queue, instance, staleAfterMs());
                } else {
                    slot.status = LeaseStatus.PENDING;
                    slot.retryAtMs = now;
                }
            }
        });
    }

    private LeaseLostException lost(String queue, KvResult.Written written) {
        Optional<LeaseDoc> holder = holder(written);
        String key = keys.lease(queue);
        if (holder.isEmpty()) {
            return new LeaseLostException(queue, "the lease " + key + " of queue '" + queue + "' expired before instance "
                    + instance + " refreshed it (a stall longer than the lease TTL of " + ttlMs
                    + " ms): the job fails so that its restart takes the queue again from the commit pointer");
        }
        String held = "the lease " + key + " of queue '" + queue + "' is now held by instance " + holder.get().instance()
                + " (incarnation " + holder.get().incarnation() + "), not by " + instance + " (incarnation " + incarnation
                + ")";
        if (holder.get().instance().equals(instance)) {
            return new LeaseLostException(queue, held + ": another incarnation of this instance name took it over after"
                    + " this one had not refreshed it for " + staleAfterMs() + " ms (a stall, or a second job run with"
                    + " the same QUEEN_S3_INSTANCE: give each job its own or leave it unset)");
        }
        return new LeaseLostException(queue, held + ": stop the other job or give the two jobs different sink names");
    }

    private static Optional<LeaseDoc> holder(KvResult.Written written) {
        if (written.value().isEmpty() || written.value().get().isNull()) {
            return Optional.empty();
        }
        // An unreadable lease is someone else's, named by its text, until its TTL frees it.
        RawJson value = written.value().get();
        return Optional.of(LeaseDocs.decode(value).orElseGet(() -> new LeaseDoc(value.text(), "", 0)));
    }

    private KvAnswer.Results results(List<KvOp> ops) {
        KvAnswer answer = client.kv(ops);
        if (answer instanceof KvAnswer.Results results) {
            return results;
        }
        // No op of a lease round is required, so the broker never rolls one back.
        throw new IllegalStateException("the broker at " + client.broker()
                + " rolled back a lease round that had no required operation: check that QUEEN_URL is a Queen broker");
    }

    /**
     * Releases every held lease and the presence row, each only if it is still ours
     * ({@code expect} = the held version). Best effort: a failure is logged, the TTL does the rest.
     */
    public synchronized void releaseAll() {
        if (closed) {
            return;
        }
        closed = true;
        List<KvOp> ops = new ArrayList<>();
        for (Map.Entry<String, LeaseSlot> e : slots.entrySet()) {
            if (e.getValue().status.mine()) {
                ops.add(new KvOp.Delete(SinkKeys.NAMESPACE, keys.lease(e.getKey()), KvExpect.version(e.getValue().version), false));
            }
        }
        if (presenceVersion > 0) {
            ops.add(new KvOp.Delete(SinkKeys.NAMESPACE, keys.presence(instance), KvExpect.version(presenceVersion), false));
        }
        try {
            KvBatches.forEach(ops, (from, batch) -> client.kv(batch));
            LOG.info("instance {} released {} leases and its presence row", instance, ops.size() - (presenceVersion > 0 ? 1 : 0));
        } catch (RuntimeException e) {
            LOG.warn("instance {} could not release its leases ({}); they expire after {} ms", instance, e.getMessage(), ttlMs);
        }
        slots.clear();
    }

    /**
     * How far a completed checkpoint closed {@code queue}; the next lease refresh carries it, so
     * that {@code status} and the lag read from the broker alone see an idle queue advance. Only
     * ever moves forward (any thread).
     */
    public void reportProgress(String queue, LeaseDoc.Progress next) {
        progress.merge(queue, next, (before, now) -> now.k() >= before.k()
                && now.closedThroughMicros() >= before.closedThroughMicros() ? now : before);
    }

    /** The progress the next refresh of {@code queue}'s lease carries. */
    public Optional<LeaseDoc.Progress> progress(String queue) {
        return Optional.ofNullable(progress.get(queue));
    }

    private RawJson doc(String queue) {
        return RawJson.ofUtf8(new LeaseDoc(instance, incarnation, sinceMs, progress(queue)).toJson());
    }

    private RawJson doc() {
        return RawJson.ofUtf8(new LeaseDoc(instance, incarnation, sinceMs).toJson());
    }

    private KvExpiry ttl() {
        return KvExpiry.seconds(Math.max(1, (ttlMs + 999) / 1000));
    }

    private synchronized LeaseView view(Optional<RuntimeException> failure) {
        Map<String, LeaseStatus> statuses = new HashMap<>();
        for (String queue : wanted) {
            LeaseSlot slot = slots.get(queue);
            statuses.put(queue, slot == null ? LeaseStatus.PENDING : slot.status);
        }
        return new LeaseView(statuses, failure);
    }
}
