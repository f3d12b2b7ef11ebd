package io.queenlake.broker.client;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The Queen MQ broker routes queen-lake uses (docs/BROKER-API.md), typed.
 *
 * <p>Every method answers for one node; every failure is a {@link QueenException} that says
 * whether it is retriable. Nothing here retries but {@link #kv} after a 429 (the broker's KV write
 * budget): for everything else use {@link RetryPolicy}. Entry errors
 * ({@link EntryError}) and lost KV preconditions ({@link KvAnswer.PreconditionFailed}) are
 * answers, not exceptions.
 */
public interface QueenClient {

    /** The broker's base URL, for messages. */
    String broker();

    /** {@code POST /api/v1/fetch}: one answer per entry, in request order. */
    List<FetchedPartition> fetch(FetchRequest request);

    /** {@link #fetch} without blocking the caller. */
    CompletableFuture<List<FetchedPartition>> fetchAsync(FetchRequest request);

    /** {@code POST /api/v1/fetch/offsets}: per entry, the first offset stamped at or after a millisecond. */
    List<OffsetAnswer> fetchOffsets(List<OffsetQuery> queries);

    /** {@code POST /api/v1/partitions/changed}: one page per entry plus the node's safeTime; no entries answers safeTime alone. */
    ChangedPage partitionsChanged(List<ChangedQuery> queries);

    /** The node's safeTime in microseconds: a {@link #partitionsChanged} call with no entries. */
    default long safeTimeMicros() {
        return partitionsChanged(List.of()).safeTimeMicros();
    }

    /**
     * {@code POST /api/v1/kv}: one batch, applied all or nothing when an op is {@code required}. An
     * empty batch makes no call. A refusal as over the broker's rate (429, which changed nothing) is
     * retried a few times after its {@code Retry-After} ({@link RetryPolicy#rateLimits()}).
     */
    KvAnswer kv(List<KvOp> ops);

    /** {@code GET /api/v1/resources/queues}: the tenant's queue names. */
    List<String> queues();

    /** {@code POST /api/v1/push}: one result per item, in order. */
    List<PushResult> push(List<PushItem> items);

    /** {@code POST /api/v1/configure}: sets the given queue options. */
    void configure(String queue, QueueOptions options);

    /** {@code GET /health} (public). */
    BrokerHealth health();
}
