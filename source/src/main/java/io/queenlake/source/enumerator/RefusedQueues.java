package io.queenlake.source.enumerator;

import io.queenlake.source.enumerator.start.StartPlan;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The queues this enumerator holds but does not let read: those whose lake is ahead of their
 * commit pointer (the KV forgot committed windows), those whose lake could not be checked, and,
 * after a restore with Flink state, those not checked yet. A refused queue gets no split (a
 * restored one keeps its split, parked: no pass lists it, so its reader fetches nothing and its
 * cut stays as it was), counts as covered by a pass so the other queues go on, and is checked
 * again every {@link #RECHECK_MS}: once its pointer is repaired, it starts in the running job.
 * Each refusal is logged once, and again only when its sentence changes. Written on the coordinator
 * thread only; tests read it from theirs.
 */
final class RefusedQueues {

    private static final Logger LOG = LoggerFactory.getLogger(RefusedQueues.class);
    /** A refused queue's lake is checked again this often: a KV read and a HEAD each, even for thousands. */
    static final long RECHECK_MS = 10_000;

    private record Refused(String sentence, long checkedAtMillis, boolean lakeAhead) {}

    private final Map<String, Refused> refused = new ConcurrentHashMap<>();
    private long recheckMs = RECHECK_MS;

    /** Tests check again sooner. */
    void recheckAfter(long millis) {
        recheckMs = millis;
    }

    /** Refuses {@code queue} for now; logs the refusal unless it is the one already logged. */
    void refuse(String queue, StartPlan.Refusal refusal, long nowMillis) {
        if (refusal.checking()) {
            // Still being checked: asked again at the next run, the sentence already logged (if any) kept.
            refused.merge(queue, new Refused("", 0, false), (was, now) -> new Refused(was.sentence(), 0, was.lakeAhead()));
            return;
        }
        Refused before = refused.put(queue, new Refused(refusal.sentence(), nowMillis, refusal.lakeAhead()));
        // A lake ahead is said again when what it names changed; a check that keeps failing only once
        // (its sentence carries the error's text, which may change every time).
        boolean said = before != null && !before.sentence().isEmpty() && before.lakeAhead() == refusal.lakeAhead()
                && (!refusal.lakeAhead() || before.sentence().equals(refusal.sentence()));
        if (!said) {
            if (refusal.lakeAhead()) {
                LOG.error(refusal.sentence());
            } else {
                LOG.warn(refusal.sentence());
            }
        }
    }

    /** A restored queue whose lake is being checked: parked until the verdict, not logged. */
    void awaitCheck(String queue, long nowMillis) {
        refused.putIfAbsent(queue, new Refused("", nowMillis, false));
    }

    /** Lets {@code queue} read again; logs that it starts when it was refused. */
    void clear(String queue) {
        Refused before = refused.remove(queue);
        if (before != null && !before.sentence().isEmpty()) {
            LOG.info("queue '{}' is no longer refused: its commit pointer now accounts for every manifest in the"
                    + " bucket, so it starts", queue);
        }
    }

    /** Why {@code queue} is refused; empty when it is not, or while its first check runs. */
    Optional<String> sentence(String queue) {
        Refused r = refused.get(queue);
        return r == null || r.sentence().isEmpty() ? Optional.empty() : Optional.of(r.sentence());
    }

    boolean contains(String queue) {
        return refused.containsKey(queue);
    }

    /** Whether {@code queue} is refused and its lake is due to be checked again. */
    boolean due(String queue, long nowMillis) {
        Refused r = refused.get(queue);
        return r != null && nowMillis - r.checkedAtMillis() >= recheckMs;
    }

    /** Marks a due check as started, so it is not started twice. */
    void checking(String queue, long nowMillis) {
        refused.computeIfPresent(queue, (q, r) -> new Refused(r.sentence(), nowMillis, r.lakeAhead()));
    }

    Set<String> names() {
        return Set.copyOf(refused.keySet());
    }

    int size() {
        return refused.size();
    }
}
