package io.queenlake.broker.kv;

import io.queenlake.broker.client.KvBatcher;
import io.queenlake.broker.client.KvRow;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.format.manifest.Committed;
import io.queenlake.format.manifest.LeaseDoc;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Reads and moves the commit pointers {@code s3:<sink>:<escQueue>:committed} of one sink, and
 * reads who holds a queue's lease: every KV read of the lake's progress, for the committer, the
 * restore, the enumerator's start plan and the command line alike. Every move is a put with
 * {@code expect} = the version last read or written: alone in its call with {@code required:true},
 * or, given a {@link KvBatcher}, one put of a call that many queues' lanes share (so are single
 * reads); either way a lost precondition is a verdict ({@link Move#lost}), not an error. A pointer that does not decode is an
 * {@link UnreadableDocumentException}. Broker failures surface as the client's
 * {@code QueenException}, retriable or not; nothing here retries.
 */
public final class CommitPointers {

    private final QueenClient client;
    private final SinkKeys keys;
    private final DocumentCalls calls;

    /** Each read and move one KV call of its own. */
    public CommitPointers(QueenClient client, String sink) {
        this(client, sink, DocumentCalls.direct(client));
    }

    /** {@link #read}, {@link #lease} and {@link #move} share calls with other threads through {@code batcher}. */
    public CommitPointers(QueenClient client, String sink, KvBatcher batcher) {
        this(client, sink, DocumentCalls.shared(Objects.requireNonNull(batcher, "batcher")));
    }

    private CommitPointers(QueenClient client, String sink, DocumentCalls calls) {
        this.client = client;
        this.keys = new SinkKeys(sink);
        this.calls = calls;
    }

    /** The outcome of a conditional move. */
    public record Move(boolean applied, ObservedPointer now) {
        static Move lost() {
            return new Move(false, ObservedPointer.absent());
        }
    }

    /** A queue's lease row as stored: its holder (empty when unreadable) and when it expires. */
    public record LeaseRow(Optional<LeaseDoc> holder, KvRow row) {}

    public String committedKey(String queue) {
        return keys.committed(queue);
    }

    public String leaseKey(String queue) {
        return keys.lease(queue);
    }

    /** The queue's pointer as stored now. */
    public ObservedPointer read(String queue) {
        return observed(queue, calls.get(keys.committed(queue)));
    }

    /** The pointers of many queues, in as few KV batches as the broker allows. */
    public Map<String, ObservedPointer> readAll(List<String> queues) {
        Map<String, ObservedPointer> pointers = new LinkedHashMap<>();
        KvBatches.forEach(queues, (from, batch) -> {
            List<Optional<KvRow>> rows = KvDocuments.get(client, batch.stream().map(keys::committed).toList());
            for (int i = 0; i < batch.size(); i++) {
                pointers.put(batch.get(i), observed(batch.get(i), rows.get(i)));
            }
        });
        return pointers;
    }

    /** Puts {@code next} forever, only if the pointer is still at {@code expected}'s version. */
    public Move move(String queue, ObservedPointer expected, Committed next) {
        OptionalLong written = calls.putForever(keys.committed(queue), next.toJson(), expected.version());
        return written.isPresent()
                ? new Move(true, new ObservedPointer(Optional.of(next), written.getAsLong()))
                : Move.lost();
    }

    /** The queue's lease row, or empty when nobody holds the queue. */
    public Optional<LeaseRow> lease(String queue) {
        return calls.get(keys.lease(queue)).map(row -> new LeaseRow(LeaseDocs.decode(row.value()), row));
    }

    /** Who holds the queue's lease, for messages: {@code instance 'x' (incarnation y)} or that nobody does. */
    public String holder(String queue) {
        Optional<LeaseRow> lease = lease(queue);
        if (lease.isEmpty()) {
            return "no lease holder (" + keys.lease(queue) + " is free)";
        }
        return lease.get().holder()
                .map(h -> "lease holder instance '" + h.instance() + "' (incarnation " + h.incarnation() + ")")
                .orElse("an unknown lease holder (" + keys.lease(queue) + " is unreadable)");
    }

    private ObservedPointer observed(String queue, Optional<KvRow> row) {
        if (row.isEmpty()) {
            return ObservedPointer.absent();
        }
        return new ObservedPointer(Optional.of(KvDocuments.decode(row.get(), Committed::fromJson, "commit pointer",
                keys.committed(queue), queue, client.broker())), row.get().version());
    }
}
