package io.queenlake.source.enumerator;

import io.queenlake.broker.client.QueenException;
import io.queenlake.broker.kv.CommitPointers;
import io.queenlake.broker.kv.LeaseKeeper;
import io.queenlake.broker.kv.LeaseView;
import io.queenlake.broker.kv.ObservedPointer;
import io.queenlake.broker.kv.UnreadableDocumentException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One lease round and the pointers of the queues it holds (for the lag): the blocking half, taken
 * off the coordinator thread ({@link LeaseRounds}) and handed to it to merge.
 */
record LeaseRound(LeaseView view, Map<String, ObservedPointer> pointers) {

    // Its line keeps the enumerator's logger, as before this record had a file of its own.
    private static final Logger LOG = LoggerFactory.getLogger(QueenSplitEnumerator.class);

    /** Refreshes or asks for every wanted lease, then reads the pointers of the queues held; blocking. */
    static LeaseRound take(LeaseKeeper leases, CommitPointers pointers) {
        LeaseView view = leases.tick();
        List<String> held = new ArrayList<>();
        view.statuses().forEach((queue, status) -> {
            if (status.mine()) {
                held.add(queue);
            }
        });
        Map<String, ObservedPointer> read = Map.of();
        try {
            read = held.isEmpty() ? Map.of() : pointers.readAll(held);
        } catch (QueenException | UnreadableDocumentException e) {
            LOG.debug("could not read the commit pointers for lagSeconds; it keeps its last value: {}", e.getMessage());
        }
        return new LeaseRound(view, read);
    }
}
