package io.queenlake.broker.kv;

import io.queenlake.broker.client.KvBatcher;
import io.queenlake.broker.client.KvRow;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.format.manifest.Intent;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Reads and writes the intent documents {@code s3:<sink>:<escQueue>:intent} of one sink: the
 * window a committer is about to make visible (its {@code k}, bounds and format), written before
 * any of its objects is published, so that the next run finishes exactly that window
 * (docs/ARCHITECTURE.md "Two-phase commit", "Restore"). Like the pointer, an intent is written
 * forever and only with {@code expect} = the version last read or written ({@code 0} when absent):
 * alone in its call with {@code required:true}, or, given a {@link KvBatcher}, one put of a call
 * many queues' lanes share (so are single reads); either way a lost precondition is a verdict
 * ({@link Write#applied} false), not an error. An intent that does not decode is an {@link UnreadableDocumentException} (never taken
 * for absent, never overwritten). Broker failures surface as the client's {@code QueenException};
 * nothing here retries.
 */
public final class Intents {

    private final QueenClient client;
    private final SinkKeys keys;
    private final DocumentCalls calls;

    /** Each read and write one KV call of its own. */
    public Intents(QueenClient client, String sink) {
        this(client, sink, DocumentCalls.direct(client));
    }

    /** {@link #read} and {@link #write} share calls with other threads through {@code batcher}. */
    public Intents(QueenClient client, String sink, KvBatcher batcher) {
        this(client, sink, DocumentCalls.shared(Objects.requireNonNull(batcher, "batcher")));
    }

    private Intents(QueenClient client, String sink, DocumentCalls calls) {
        this.client = client;
        this.keys = new SinkKeys(sink);
        this.calls = calls;
    }

    /** The outcome of a conditional write: whether it applied, and the intent as this job now knows it. */
    public record Write(boolean applied, ObservedIntent now) {}

    public String intentKey(String queue) {
        return keys.intent(queue);
    }

    /** The queue's intent as stored now. */
    public ObservedIntent read(String queue) {
        return observed(queue, calls.get(keys.intent(queue)));
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
        OptionalLong written = calls.putForever(keys.intent(queue), next.toJson(), expected.version());
        return written.isPresent()
                ? new Write(true, new ObservedIntent(Optional.of(next), written.getAsLong()))
                : new Write(false, expected);
    }
}
