package io.queenlake.devstack.broker;

import com.fasterxml.jackson.databind.JsonNode;
import io.queenlake.broker.kv.SinkKeys;
import io.queenlake.devstack.broker.JournalEntry.LogTrimmed;
import java.io.IOException;
import java.time.format.DateTimeParseException;

/**
 * One retention pass over every queue that has retention enabled: removes the prefix of each
 * partition stamped before the queue's floor. With a sink hold the floor never passes the sink's
 * committed {@code tEnd} minus 60 s, unless the hold has lasted longer than its maximum:
 * {@code floor = min(now - retention, max(tEnd - 60 s, now - holdMax))}; a sink that never committed
 * (or wrote a non-ISO tEnd) holds up to the maximum. It also forgets transaction ids past the dedup window.
 */
final class RetentionPass {

    static final long HOLD_MARGIN_MICROS = 60_000_000L;

    private final BrokerState state;

    RetentionPass(BrokerState state) {
        this.state = state;
    }

    void run() throws IOException {
        state.write(change -> {
            long now = state.clock().now();
            for (Tenant t : state.tenants()) {
                for (BrokerQueue q : t.queuesInCreationOrder()) {
                    RetentionOptions r = q.retention();
                    for (PartitionLog p : q.partitions()) {
                        p.forgetTransactionsOlderThan(now - DedupIndex.WINDOW_MICROS);
                    }
                    if (!r.enabled()) {
                        continue;
                    }
                    long floor = floor(r, r.holdsForSink() ? committedTEnd(t, q.name(), r.sinkHold(), now) : null, now);
                    for (PartitionLog p : q.partitions()) {
                        long newStart = p.firstOffsetStampedFrom(floor);
                        if (newStart > p.bounds().logStart()) {
                            change.apply(new LogTrimmed(t.id(), q.name(), p.name(), newStart));
                        }
                    }
                }
            }
            return null;
        });
    }

    /** Records stamped below the returned floor may go. */
    static long floor(RetentionOptions r, Long committedTEnd, long now) {
        long byAge = now - r.seconds() * 1_000_000L;
        if (!r.holdsForSink()) {
            return byAge;
        }
        long cap = now - r.sinkHoldMaxSeconds() * 1_000_000L;
        long hold = committedTEnd == null ? cap : Math.max(committedTEnd - HOLD_MARGIN_MICROS, cap);
        return Math.min(byAge, hold);
    }

    /** The sink's committed {@code tEnd} in micros, or null when it never committed or wrote it as a number. */
    static Long committedTEnd(Tenant tenant, String queue, String sink, long now) {
        KvRow row = tenant.kv().live(SinkKeys.NAMESPACE, new SinkKeys(sink).committed(queue), now);
        if (row == null) {
            return null;
        }
        try {
            JsonNode tEnd = WireJson.MAPPER.readTree(row.value()).get("tEnd");
            return tEnd != null && tEnd.isTextual() ? BrokerTime.parseMicros(tEnd.textValue()) : null;
        } catch (IOException | DateTimeParseException | ArithmeticException unreadable) {
            return null;
        }
    }

}
