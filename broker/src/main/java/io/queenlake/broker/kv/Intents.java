package io.queenlake.broker.kv;

import io.queenlake.broker.client.KvRow;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.format.manifest.Intent;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Reads and writes the intent documents {@code s3:<sink>:<escQueue>:intent} of one sink: the
 * window a committer is about to make visible (its {@code k}, bounds and format), written before
 * any of its objects is published, so that the next run finishes exactly that window
 * (docs/ARCHITECTURE.md "Two-phase commit", "Restore"). Like the pointer, an intent is written
 * forever and only with {@code expect} = the version last read or written ({@code 0} when absent),
 * {@code required:true}: a lost precondition is a verdict ({@link Write#applied} false), not an
 * error. An intent that does not decode is an {@link UnreadableDocumentException} (never taken
 * for absent, never overwritten). Broker failures surface as the client's {@code QueenException};
 * nothing here retries.
 */
public final class Intents {

    private final QueenClient client;
    private final SinkKeys keys;

    public Intents(QueenClient client, String sink) {
        this.client = client;
        this.keys = new SinkKeys(sink);
    }

    /** The outcome of a conditional write: whether it applied, and the intent as this job now knows it. */
    public record Write(boolean applied, ObservedIntent now) {}

    public String intentKey(String queue) {
        return keys.intent(queue);
    }

    /** The queue's intent as stored now. */
    public ObservedIntent read(String queue) {
        return observed(queue, KvDocuments.get(client, List.of(keys.intent(queue))).get(0));
    }

    /** The intents of many queues, in as few KV batches as the broker allows. */
    public Map<String, ObservedIntent> readAll(List<String> queues) {
        Map<String, ObservedIntent> intents = new LinkedHashMap<>();
        KvBatches.forEach(queues, (from, batch) -> {
            List<Optional<KvRow>> rows = KvDocuments.get(client, batch.stream().map(keys::intent).toList());
            for (int i = 0; i < batch.size(); i++) {
                intents.put(batch.get(i), observed(batch.get(i), rows.get(i)));
            }
        });
        return intents;
    }

    private ObservedIntent observed(String queue, Optional<KvRow> row) {
        if (row.isEmpty()) {
            return ObservedIntent.absent();
        }
        return new ObservedIntent(Optional.of(KvDocuments.decode(row.get(), Intent::fromJson, "intent",
                keys.intent(queue), queue, client.broker())), row.get().version());
    }

    /** Puts {@code next} forever, only if the intent is still at {@code expected}'s version. */
    public Write write(String queue, ObservedIntent expected, Intent next) {
        OptionalLong written = KvDocuments.putForever(client, keys.intent(queue), next.toJson(), expected.version());
        return written.isPresent()
                ? new Write(true, new ObservedIntent(Optional.of(next), written.getAsLong()))
                : new Write(false, expected);
    }
}
