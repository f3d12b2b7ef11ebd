package io.queenlake.broker.kv;

import io.queenlake.broker.client.KvAnswer;
import io.queenlake.broker.client.KvBatcher;
import io.queenlake.broker.client.KvExpect;
import io.queenlake.broker.client.KvExpiry;
import io.queenlake.broker.client.KvOp;
import io.queenlake.broker.client.KvResult;
import io.queenlake.broker.client.KvRow;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.client.RawJson;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;

/**
 * The two KV calls the sink's forever documents (pointer, intent) are made of: a batch of reads,
 * and one conditional put forever with {@code expect} = the version last seen ({@code 0}: absent):
 * alone in its call with {@code required:true}, or without it as one put of a call shared through
 * a {@link KvBatcher}.
 */
final class KvDocuments {

    private KvDocuments() {}

    /** The rows at {@code keyList} in namespace {@value SinkKeys#NAMESPACE}, in one batch; empty where absent. */
    static List<Optional<KvRow>> get(QueenClient client, List<String> keyList) {
        List<KvOp> ops = new ArrayList<>(keyList.size());
        keyList.forEach(key -> ops.add(KvOp.get(SinkKeys.NAMESPACE, key)));
        KvAnswer answer = client.kv(ops);
        if (!(answer instanceof KvAnswer.Results results)) {
            throw new IllegalStateException("the broker at " + client.broker() + " answered a KV read of " + keyList
                    + " with " + answer + ": check that QUEEN_URL points at a Queen broker");
        }
        List<Optional<KvRow>> rows = new ArrayList<>(keyList.size());
        for (int i = 0; i < keyList.size(); i++) {
            if (!(results.get(i) instanceof KvResult.Got got)) {
                throw new IllegalStateException("the broker at " + client.broker() + " answered a KV get of "
                        + keyList.get(i) + " with " + results.get(i) + ": check that QUEEN_URL points at a Queen broker");
            }
            rows.add(got.row());
        }
        return rows;
    }

    /**
     * The document in {@code row} decoded; one that does not decode, a JSON null included, is an
     * {@link UnreadableDocumentException}, never taken for absent (a null pointer read as absent
     * would start a queue over and let the committer write window 1 over it).
     */
    static <T> T decode(KvRow row, Function<byte[], T> decoder, String what, String key, String queue, String broker) {
        try {
            return decoder.apply(row.value().utf8());
        } catch (RuntimeException unreadable) {
            throw new UnreadableDocumentException(what, key, queue, broker, unreadable);
        }
    }

    /** Puts {@code json} forever if the key is still at {@code expectedVersion}; the version written, or empty when the precondition was lost. */
    static OptionalLong putForever(QueenClient client, String key, byte[] json, long expectedVersion) {
        KvAnswer answer = client.kv(List.of(foreverPut(key, json, expectedVersion, true)));
        if (answer instanceof KvAnswer.Results results && results.get(0) instanceof KvResult.Written written) {
            return versionWritten(written);
        }
        return OptionalLong.empty();
    }

    /** {@link #putForever(QueenClient, String, byte[], long)} as one put of a call many queues share: not required, so it loses alone. */
    static OptionalLong putForever(KvBatcher batcher, String key, byte[] json, long expectedVersion) {
        return versionWritten(batcher.put(foreverPut(key, json, expectedVersion, false)));
    }

    private static KvOp.Put foreverPut(String key, byte[] json, long expectedVersion, boolean required) {
        KvExpect expect = expectedVersion == 0 ? KvExpect.absent() : KvExpect.version(expectedVersion);
        return new KvOp.Put(SinkKeys.NAMESPACE, key, RawJson.ofUtf8(json), KvExpiry.forever(), expect, required);
    }

    private static OptionalLong versionWritten(KvResult.Written written) {
        return written.applied() ? OptionalLong.of(written.version()) : OptionalLong.empty();
    }
}
