package io.queenlake.source.reader;

import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.client.QueenException;
import io.queenlake.broker.kv.CommitPointers;
import io.queenlake.broker.kv.Intents;
import io.queenlake.broker.kv.ObservedIntent;
import io.queenlake.broker.kv.ObservedPointer;
import io.queenlake.broker.kv.UnreadableDocumentException;
import io.queenlake.source.PointerAtStart;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the commit pointers and intents of the queues whose starts go out together, in KV batches
 * of up to 256 keys: two calls for a pass that starts 256 queues, where the windows would read two
 * per queue, one after another, on this same task thread (about 50 s for 5,000 queues at 5 ms a
 * call). Best effort: when a batch fails (the broker, a document that does not decode) the queues
 * go without, and the windows read each pointer themselves, with their own retries and messages.
 */
final class StartPointers {

    private static final Logger LOG = LoggerFactory.getLogger(StartPointers.class);

    private final CommitPointers pointers;
    private final Intents intents;

    StartPointers(QueenClient client, String sink) {
        this.pointers = new CommitPointers(client, sink);
        this.intents = new Intents(client, sink);
    }

    /** Each queue's pointer and intent as stored now; none when the batch read failed. */
    Map<String, PointerAtStart> read(List<String> queues) {
        if (queues.size() < 2) {
            return Map.of(); // one queue: the windows' own read costs the same
        }
        try {
            Map<String, ObservedPointer> read = pointers.readAll(queues);
            Map<String, ObservedIntent> open = intents.readAll(queues);
            Map<String, PointerAtStart> starts = new HashMap<>();
            for (String queue : queues) {
                starts.put(queue, new PointerAtStart(read.get(queue).pointer(), open.get(queue).intent()));
            }
            return starts;
        } catch (QueenException | UnreadableDocumentException e) {
            LOG.debug("the pointers of {} starting queues were not read in a batch ({}); each queue reads its own",
                    queues.size(), e.toString());
            return Map.of();
        }
    }
}
