package io.queenlake.source.event;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceEvent;

/**
 * Reader to enumerator: a {@link PassUpdate} arrived that is not based on the last one this reader
 * applied, so send the whole listing with the next pass. Flink delivers a running reader's events
 * in order and a restarted reader registers again (which resets the listing too), so this is the
 * guard for what should not happen, not a path of the protocol's normal run.
 */
@Internal
public record ListingRequest(long lastApplied) implements SourceEvent {

    private static final long serialVersionUID = 1L;
}
