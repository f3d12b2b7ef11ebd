package io.queenlake.job.sink.committer;

import io.queenlake.broker.client.KvAnswer;
import io.queenlake.broker.client.KvExpect;
import io.queenlake.broker.client.KvExpiry;
import io.queenlake.broker.client.KvOp;
import io.queenlake.broker.client.KvResult;
import io.queenlake.broker.client.KvRow;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.client.RawJson;
import io.queenlake.format.key.NameEscaping;
import io.queenlake.format.manifest.Committed;
import io.queenlake.format.manifest.LeaseDoc;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The KV side of the commit: reads and moves {@code s3:<sink>:<escQueue>:committed} (namespace
 * {@code queen-s3}) and names the holder of the queue's lease for a fencing message. Every move is
 * one batch with {@code expect} = the version last read or written and {@code required:true}: a
 * lost precondition is a verdict ({@link Move#lost}), not an error. Broker failures surface as the
 * client's {@code QueenException}, retriable or not; nothing here retries.
 */
public final class PointerStore {

    public static final String NAMESPACE = "queen-s3";

    private static final Logger LOG = LoggerFactory.getLogger(PointerStore.class);

    private final QueenClient client;
    private final String sink;

    public PointerStore(QueenClient client, String sink) {
        this.client = client;
        this.sink = sink;
    }

    /** The outcome of a conditional move. */
    public record Move(boolean applied, ObservedPointer now) {
        static Move lost() {
            return new Move(false, ObservedPointer.absent());
        }
    }

    public String committedKey(String queue) {
        return "s3:" + sink + ":" + NameEscaping.escape(queue) + ":committed";
    }

    public String leaseKey(String queue) {
        return "s3:" + sink + ":" + NameEscaping.escape(queue) + ":lease";
    }

    public ObservedPointer read(String queue) {
        Optional<KvRow> row = get(committedKey(queue));
        if (row.isEmpty()) {
            return ObservedPointer.absent();
        }
        try {
            return new ObservedPointer(Optional.of(Committed.fromJson(row.get().value().utf8())), row.get().version());
        } catch (RuntimeException unreadable) {
            LOG.warn("the commit pointer {} of queue '{}' is unreadable ({}); treating it as absent at version {}",
                    committedKey(queue), queue, unreadable.getMessage(), row.get().version());
            return new ObservedPointer(Optional.empty(), row.get().version());
        }
    }

    /** Puts {@code next} forever, only if the pointer is still at {@code expected}'s version. */
    public Move move(String queue, ObservedPointer expected, Committed next) {
        KvExpect expect = expected.version() == 0 ? KvExpect.absent() : KvExpect.version(expected.version());
        KvAnswer answer = client.kv(List.of(new KvOp.Put(NAMESPACE, committedKey(queue),
                RawJson.ofUtf8(next.toJson()), KvExpiry.forever(), expect, true)));
        if (answer instanceof KvAnswer.Results results
                && results.get(0) instanceof KvResult.Written written && written.applied()) {
            return new Move(true, new ObservedPointer(Optional.of(next), written.version()));
        }
        return Move.lost();
    }

    /** Who holds the queue's lease, for messages: {@code instance 'x' (incarnation y)} or that nobody does. */
    public String holder(String queue) {
        Optional<KvRow> row = get(leaseKey(queue));
        if (row.isEmpty()) {
            return "no lease holder (" + leaseKey(queue) + " is free)";
        }
        try {
            LeaseDoc lease = LeaseDoc.fromJson(row.get().value().utf8());
            return "lease holder instance '" + lease.instance() + "' (incarnation " + lease.incarnation() + ")";
        } catch (RuntimeException unreadable) {
            return "an unknown lease holder (" + leaseKey(queue) + " is unreadable)";
        }
    }

    /** The broker's safeTime in microseconds: a {@code partitions/changed} call with no entries. */
    public long safeTimeMicros() {
        return client.partitionsChanged(List.of()).safeTimeMicros();
    }

    private Optional<KvRow> get(String key) {
        KvAnswer answer = client.kv(List.of(KvOp.get(NAMESPACE, key)));
        if (answer instanceof KvAnswer.Results results && results.get(0) instanceof KvResult.Got got) {
            return got.row();
        }
        throw new IllegalStateException("the broker answered a KV get of " + key + " with " + answer
                + ": check that QUEEN_URL points at a Queen broker");
    }
}
