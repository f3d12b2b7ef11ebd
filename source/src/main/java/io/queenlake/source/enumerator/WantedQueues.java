package io.queenlake.source.enumerator;

import io.queenlake.source.QueenSourceOptions;
import io.queenlake.broker.kv.LeaseStatus;
import io.queenlake.format.key.KeyBudget;
import io.queenlake.broker.kv.LeaseView;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The queues this enumerator wants to mirror (named, or the tenant's last listing under {@code *})
 * and, from the last lease round, which of them it holds. Coordinator thread only; it decides
 * nothing about partitions. A listed queue whose lake keys cannot fit in S3 ({@link KeyBudget}) is
 * not wanted: S3 would refuse its every upload and its stagings would hold back every commit. It is
 * named in one warning, once per job run, and the others go on.
 */
final class WantedQueues {

    private static final Logger LOG = LoggerFactory.getLogger(WantedQueues.class);

    private final Set<String> wanted = new LinkedHashSet<>();
    /** Listed queues skipped for their key length, each warned about once. */
    private final Set<String> skipped = new LinkedHashSet<>();
    private final Optional<KeyBudget> keys;
    private boolean known;
    private Map<String, LeaseStatus> leases = Map.of();

    /**
     * Named queues are known from the start (the job's settings already refused any that does not
     * fit); {@code *} waits for the first listing. {@code keys}: null to skip no listed queue.
     */
    WantedQueues(Collection<String> named, boolean allQueues, KeyBudget keys) {
        this.keys = Optional.ofNullable(keys);
        if (!allQueues) {
            wanted.addAll(named);
            known = true;
        }
    }

    /** The wanted queues in their listing order. */
    Set<String> names() {
        return wanted;
    }

    /** False until the first listing under {@code *}. */
    boolean known() {
        return known;
    }

    boolean mine(String queue) {
        return status(queue).mine();
    }

    LeaseStatus status(String queue) {
        return leases.getOrDefault(queue, LeaseStatus.PENDING);
    }

    /** Every wanted queue's lease as last seen. */
    Map<String, LeaseStatus> statuses() {
        Map<String, LeaseStatus> status = new HashMap<>();
        wanted.forEach(queue -> status.put(queue, status(queue)));
        return status;
    }

    /**
     * Takes a lease round's view; returns whether it won a queue this job did not hold. A queue won
     * while the job runs starts its own frontier and windows: nothing of it is late.
     */
    boolean onLeases(LeaseView view) {
        boolean won = false;
        for (Map.Entry<String, LeaseStatus> e : view.statuses().entrySet()) {
            LeaseStatus before = status(e.getKey());
            won |= e.getValue().mine() && !before.mine();
        }
        leases = view.statuses();
        return won;
    }

    /** Takes the tenant's listing under {@code *}; returns whether it added a queue. */
    boolean onListing(List<String> listed) {
        Set<String> now = new LinkedHashSet<>();
        for (String queue : listed) {
            if (fits(queue)) {
                now.add(queue);
            }
        }
        if (!known || !now.equals(wanted)) {
            Set<String> added = new LinkedHashSet<>(now);
            added.removeAll(wanted);
            Set<String> removed = new LinkedHashSet<>(wanted);
            removed.removeAll(now);
            LOG.info("queue listing: {} queues; added {}, removed {}", now.size(), added, removed);
        }
        boolean added = !wanted.containsAll(now);
        wanted.clear();
        wanted.addAll(now);
        known = true;
        return added;
    }

    private boolean fits(String queue) {
        if (skipped.contains(queue)) {
            return false;
        }
        Optional<String> refusal = keys.flatMap(budget -> budget.refusal(queue));
        refusal.ifPresent(reason -> {
            skipped.add(queue);
            LOG.warn("{}=*: skipping {}; the other queues go on", QueenSourceOptions.QUEUES.key(), reason);
        });
        return refusal.isEmpty();
    }

    /**
     * A pass is complete when it covered every held queue and no wanted queue waits for its lease
     * verdict.
     */
    boolean allCovered(Set<String> covered) {
        if (!known) {
            return false;
        }
        for (String queue : wanted) {
            LeaseStatus status = status(queue);
            if (status.state() == LeaseStatus.State.PENDING || (status.mine() && !covered.contains(queue))) {
                return false;
            }
        }
        return true;
    }
}
