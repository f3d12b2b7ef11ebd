package io.queenlake.broker.kv;

import io.queenlake.broker.client.KvBatcher;
import io.queenlake.broker.client.KvRow;
import io.queenlake.broker.client.QueenClient;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * How one sink document (in namespace {@value SinkKeys#NAMESPACE}) is read and put forever:
 * straight to the client, one call each (the command line, the enumerator), or through a
 * {@link KvBatcher} that many committing lanes share.
 */
interface DocumentCalls {

    /** The row at {@code key}, empty when absent. */
    Optional<KvRow> get(String key);

    /** Puts {@code json} forever if the key is still at {@code expectedVersion}; the version written, or empty when the precondition was lost. */
    OptionalLong putForever(String key, byte[] json, long expectedVersion);

    static DocumentCalls direct(QueenClient client) {
        return new DocumentCalls() {
            @Override
            public Optional<KvRow> get(String key) {
                return KvDocuments.get(client, List.of(key)).get(0);
            }

            @Override
            public OptionalLong putForever(String key, byte[] json, long expectedVersion) {
                return KvDocuments.putForever(client, key, json, expectedVersion);
            }
        };
    }

    static DocumentCalls shared(KvBatcher batcher) {
        return new DocumentCalls() {
            @Override
            public Optional<KvRow> get(String key) {
                return batcher.get(SinkKeys.NAMESPACE, key);
            }

            @Override
            public OptionalLong putForever(String key, byte[] json, long expectedVersion) {
                return KvDocuments.putForever(batcher, key, json, expectedVersion);
            }
        };
    }
}
