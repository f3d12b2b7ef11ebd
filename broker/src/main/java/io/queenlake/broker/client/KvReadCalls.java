package io.queenlake.broker.client;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Reads many single keys with one KV call: a {@code getMany} per namespace. Keys the broker left
 * out for its read budget ({@code truncated}) are asked again in a follow-up call of the same turn.
 */
final class KvReadCalls implements CallStream.Call<KvReadCalls.Key, Optional<KvRow>> {

    /** One key to read. */
    record Key(String ns, String key) {}

    private final QueenClient client;
    private final AtomicLong calls = new AtomicLong();
    private final AtomicLong keys = new AtomicLong();

    KvReadCalls(QueenClient client) {
        this.client = client;
    }

    @Override
    public List<Optional<KvRow>> make(List<Key> asked) {
        Map<Key, Optional<KvRow>> found = new HashMap<>();
        List<Key> left = asked.stream().distinct().toList();
        while (!left.isEmpty()) {
            List<Key> notAnswered = call(left, found);
            if (notAnswered.size() == left.size()) {
                throw new IllegalStateException("the broker at " + client.broker() + " answered a KV getMany of "
                        + left.size() + " keys with none of them (truncated): check the broker's KV read budget");
            }
            left = notAnswered;
        }
        return asked.stream().map(found::get).toList();
    }

    /** One call for {@code asking}; what it answered goes into {@code found}; the keys it left out are returned. */
    private List<Key> call(List<Key> asking, Map<Key, Optional<KvRow>> found) {
        Map<String, List<String>> byNamespace = new LinkedHashMap<>();
        asking.forEach(k -> byNamespace.computeIfAbsent(k.ns(), ns -> new ArrayList<>()).add(k.key()));
        List<KvOp> ops = byNamespace.entrySet().stream().<KvOp>map(e -> KvOp.getMany(e.getKey(), e.getValue())).toList();
        calls.incrementAndGet();
        keys.addAndGet(asking.size());
        KvAnswer answer = client.kv(ops);
        if (!(answer instanceof KvAnswer.Results results)) {
            throw unexpected(answer);
        }
        for (int i = 0; i < ops.size(); i++) {
            String ns = ops.get(i).ns();
            if (!(results.get(i) instanceof KvResult.GotMany many)) {
                throw unexpected(results.get(i));
            }
            many.rows().forEach(row -> found.put(new Key(ns, row.key()), Optional.of(row)));
            many.missing().forEach(key -> found.put(new Key(ns, key), Optional.empty()));
        }
        return asking.stream().filter(k -> !found.containsKey(k)).toList();
    }

    private IllegalStateException unexpected(Object answer) {
        return new IllegalStateException("the broker at " + client.broker() + " answered a KV getMany with " + answer
                + ": check that QUEEN_URL points at a Queen broker");
    }

    long calls() {
        return calls.get();
    }

    long keys() {
        return keys.get();
    }
}
