package io.queenlake.devstack.broker;

import io.queenlake.broker.client.QueenNames;

/**
 * A queue's retention settings as {@code /api/v1/configure} sets them. With a sink hold, retention
 * also waits for that sink's committed pointer.
 */
record RetentionOptions(boolean enabled, long seconds, String sinkHold, long sinkHoldMaxSeconds) {

    static final long DEFAULT_HOLD_MAX_SECONDS = 604_800L;
    static final long MIN_HOLD_MAX_SECONDS = 60L;
    static final long MAX_HOLD_MAX_SECONDS = 31_536_000L;
    static final RetentionOptions NONE = new RetentionOptions(false, 0, "", DEFAULT_HOLD_MAX_SECONDS);

    RetentionOptions {
        if (seconds < 0) {
            throw new IllegalArgumentException("retentionSeconds " + seconds + " is negative: use 0 or more seconds");
        }
        if (!sinkHold.isEmpty() && !QueenNames.isSinkName(sinkHold)) {
            throw new IllegalArgumentException("retentionSinkHold '" + sinkHold
                    + "' is not a sink name: use up to 64 of A-Z a-z 0-9 . _ - (empty = no hold)");
        }
        if (sinkHoldMaxSeconds < MIN_HOLD_MAX_SECONDS || sinkHoldMaxSeconds > MAX_HOLD_MAX_SECONDS) {
            throw new IllegalArgumentException("retentionSinkHoldMaxSeconds " + sinkHoldMaxSeconds + " is outside "
                    + MIN_HOLD_MAX_SECONDS + ".." + MAX_HOLD_MAX_SECONDS + ": pick a value in that range");
        }
    }

    boolean holdsForSink() {
        return !sinkHold.isEmpty();
    }
}
