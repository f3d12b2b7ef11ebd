package io.queenlake.broker.client;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * The queue options queen-lake sets through {@code POST /api/v1/configure}: retention and the sink hold.
 *
 * <p>Unset fields are not sent, so the broker keeps their current values.
 *
 * @param retentionSinkHold the sink name whose {@code committed.tEnd} holds retention back
 *     ({@code "default"} for the default sink)
 */
public record QueueOptions(
        Optional<Boolean> retentionEnabled,
        OptionalLong retentionSeconds,
        Optional<String> retentionSinkHold,
        OptionalLong retentionSinkHoldMaxSeconds) {

    /** Retention on, deleting records older than {@code seconds}. */
    public static QueueOptions retention(long seconds) {
        return new QueueOptions(Optional.of(true), OptionalLong.of(seconds), Optional.empty(), OptionalLong.empty());
    }

    /** The same options, with retention held back by the named sink's commit pointer for at most {@code maxSeconds}. */
    public QueueOptions heldBySink(String sink, long maxSeconds) {
        return new QueueOptions(retentionEnabled, retentionSeconds, Optional.of(sink), OptionalLong.of(maxSeconds));
    }
}
