package io.queenlake.source.event;

import java.util.Map;
import org.apache.flink.api.connector.source.SourceEvent;

/**
 * Enumerator to reader, after every complete discovery pass: the pass's safeTime (the minimum over
 * its pages) and the {@code lastOffset} of every split of that reader the pass knows ({@code -1}
 * for an empty partition). The reader's frontier is judged against exactly these numbers.
 */
public record PassCompleted(long safeTimeMicros, Map<String, Long> lastOffsets) implements SourceEvent {

    private static final long serialVersionUID = 1L;

    public PassCompleted {
        lastOffsets = Map.copyOf(lastOffsets);
    }
}
