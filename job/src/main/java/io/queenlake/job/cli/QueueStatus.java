package io.queenlake.job.cli;

import io.queenlake.broker.kv.CompleteThrough;
import io.queenlake.format.manifest.Committed;
import io.queenlake.format.manifest.LeaseDoc;
import io.queenlake.format.model.Micros;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What {@code ./queen-lake status} knows of one queue, read from the broker: the KV commit pointer,
 * the lease, and the broker's safeTime; {@link #line()} renders it. Lag is the broker's safeTime
 * minus {@code completeThrough} ({@link CompleteThrough}: the pointer's {@code tEnd}, or the lease
 * holder's checkpointed progress once the pointer reached it), the same figure as the
 * {@code lagSeconds} gauge: it stays near the guard on an idle queue and grows on one that cannot
 * commit.
 *
 * @param pointerVersion the pointer's KV version, 0 when it does not exist (a pointer that does not
 *     decode never gets here: the status line says what {@code UnreadableDocumentException} says)
 * @param leaseExpiresAtMicros when the lease lapses unless refreshed, on the broker's clock
 */
record QueueStatus(String queue, Optional<Committed> pointer, long pointerVersion, Optional<LeaseDoc> lease,
        boolean leaseUnreadable, OptionalLong leaseExpiresAtMicros, long safeTimeMicros) {

    /** Milliseconds from completeThrough to safeTime, when either is known. */
    OptionalLong lagMillis() {
        return CompleteThrough.lagMillis(safeTimeMicros, pointer, lease.flatMap(LeaseDoc::progress));
    }

    String line() {
        StringBuilder line = new StringBuilder("queue '").append(queue).append("': ");
        if (pointer.isPresent()) {
            Committed p = pointer.get();
            line.append("k=").append(p.k()).append(" tEnd=").append(Micros.render(p.tEnd()))
                    .append(" (window k holds ").append(p.records()).append(" records, ").append(p.bytes()).append(" bytes)");
        } else {
            line.append("nothing committed yet (no commit pointer)");
        }
        line.append("; ");
        if (lease.isPresent()) {
            LeaseDoc l = lease.get();
            line.append("lease held by instance '").append(l.instance()).append("' (incarnation ").append(l.incarnation())
                    .append(", since ").append(Micros.render(l.sinceMs() * 1000));
            leaseExpiresAtMicros.ifPresent(at -> line.append(", expires ").append(Micros.render(at)));
            line.append(")");
        } else {
            line.append(leaseUnreadable ? "lease unreadable" : "lease free (no job mirrors this queue now)");
        }
        line.append("; ");
        OptionalLong through = CompleteThrough.of(pointer, lease.flatMap(LeaseDoc::progress));
        through.ifPresent(t -> line.append("complete through ").append(Micros.render(t)).append(", "));
        OptionalLong lag = lagMillis();
        if (lag.isPresent()) {
            line.append(String.format(Locale.ROOT, "lag %.1f s", lag.getAsLong() / 1000.0)).append(" behind ");
        }
        line.append("safeTime ").append(Micros.render(safeTimeMicros));
        return line.toString();
    }
}
