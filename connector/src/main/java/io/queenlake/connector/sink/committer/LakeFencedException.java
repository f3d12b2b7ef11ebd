package io.queenlake.connector.sink.committer;

import org.apache.flink.annotation.PublicEvolving;

/**
 * Another writer moved a queue's commit pointer: this job must stop without writing over its
 * windows. The message names the queue, the pointer (k, tEnd) and the lease holder.
 */
@PublicEvolving
public final class LakeFencedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    LakeFencedException(String message) {
        super(message);
    }
}
