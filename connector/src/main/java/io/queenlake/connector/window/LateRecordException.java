package io.queenlake.connector.window;

import io.queenlake.source.QueenSourceOptions;
import org.apache.flink.annotation.PublicEvolving;

/**
 * A record reached the windows at or below its queue's broker-time frontier: the source broke its
 * promise. The job fails so the restart reads the record again; it is never dropped.
 */
@PublicEvolving
public final class LateRecordException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    LateRecordException(String queue, String partition, long offset, long tsMicros, long frontierMicros) {
        super("record " + offset + " of partition '" + partition + "' of queue '" + queue + "' (ts " + tsMicros
                + " us) arrived at or below the queue's frontier " + frontierMicros
                + " us, so the source broke its promise; the job fails and re-reads it on restart"
                + " (check that " + QueenSourceOptions.QUEEN_URL.key() + " names one broker node and "
                + QueenSourceOptions.SAFE_GUARD_MS.key() + " covers its clock)");
    }
}
