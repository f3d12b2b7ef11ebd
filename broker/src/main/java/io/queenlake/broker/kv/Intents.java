package io.queenlake.broker.kv;

import io.queenlake.broker.client.KvAnswer;
import io.queenlake.broker.client.KvExpect;
import io.queenlake.broker.client.KvExpiry;
import io.queenlake.broker.client.KvOp;
import io.queenlake.broker.client.KvResult;
import io.queenlake.broker.client.KvRow;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.client.RawJson;
import io.queenlake.format.manifest.Intent;
import java.util.List;
import java.util.Optional;

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
        KvAnswer answer = client.kv(List.of(KvOp.get(SinkKeys.NAMESPACE, keys.intent(queue))));
        if (!(answer instanceof KvAnswer.Results results)) {
            throw new IllegalStateException("the broker at " + client.broker() + " answered a KV read of "
                    + keys.intent(queue) + " with " + answer + ": check that QUEEN_URL points at a Queen broker");
        }
        Optional<KvRow> row = ((KvResult.Got) results.get(0)).row();
        if (row.isEmpty()) {
            return ObservedIntent.absent();
        }
        if (row.get().value().isNull()) {
            // As for the pointer: a JSON null is no intent, but its version is kept.
            return new ObservedIntent(Optional.empty(), row.get().version());
        }
        try {
            return new ObservedIntent(Optional.of(Intent.fromJson(row.get().value().utf8())), row.get().version());
        } catch (RuntimeException unreadable) {
            throw new UnreadableDocumentException("intent", keys.intent(queue), queue, client.broker(), unreadable);
        }
    }

    /** Puts {@code next} forever, only if the intent is still at {@code expected}'s version. */
    public Write write(String queue, ObservedIntent expected, Intent next) {
        KvExpect expect = expected.version() == 0 ? KvExpect.absent() : KvExpect.version(expected.version());
        KvAnswer answer = client.kv(List.of(new KvOp.Put(SinkKeys.NAMESPACE, keys.intent(queue),
                RawJson.ofUtf8(next.toJson()), KvExpiry.forever(), expect, true)));
        if (answer instanceof KvAnswer.Results results
                && results.get(0) instanceof KvResult.Written written && written.applied()) {
            return new Write(true, new ObservedIntent(Optional.of(next), written.version()));
        }
        return new Write(false, expected);
    }
}
