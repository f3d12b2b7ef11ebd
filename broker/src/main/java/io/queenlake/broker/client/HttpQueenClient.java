package io.queenlake.broker.client;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * {@link QueenClient} over {@code java.net.http} (HTTP/1.1, keep-alive): one broker URL, an
 * optional bearer token and tenant. Request bodies are rendered by {@link WireRequests}, answers
 * read as one {@code byte[]} and decoded in one streaming pass.
 */
public final class HttpQueenClient implements QueenClient {

    /** A fetch that long-polls may take its wait plus this much before the call times out. */
    private static final Duration LONG_POLL_SLACK = Duration.ofSeconds(10);

    /** KV writes are budgeted per tenant (about 100 write calls a second): a 429 is waited out here. */
    private static final RetryPolicy KV_RATE_LIMITS = RetryPolicy.rateLimits();

    private final BrokerTransport transport;

    private HttpQueenClient(BrokerTransport transport) {
        this.transport = transport;
    }

    public static Builder builder() {
        return new Builder();
    }

    @Override
    public String broker() {
        return transport.base();
    }

    @Override
    public List<FetchedPartition> fetch(FetchRequest request) {
        return transport.call(Route.FETCH, WireRequests.fetch(request), fetchTimeout(request),
                (status, body) -> FetchDecoder.decode(body, request.entries()));
    }

    @Override
    public CompletableFuture<List<FetchedPartition>> fetchAsync(FetchRequest request) {
        return transport.callAsync(Route.FETCH, WireRequests.fetch(request), fetchTimeout(request),
                (status, body) -> FetchDecoder.decode(body, request.entries()));
    }

    private Duration fetchTimeout(FetchRequest request) {
        Duration wait = Duration.ofMillis(Math.min(request.maxWaitMs(), 30_000)).plus(LONG_POLL_SLACK);
        return wait.compareTo(transport.requestTimeout()) > 0 ? wait : transport.requestTimeout();
    }

    @Override
    public List<OffsetAnswer> fetchOffsets(List<OffsetQuery> queries) {
        List<OffsetQuery> asked = List.copyOf(queries);
        return transport.call(Route.FETCH_OFFSETS, WireRequests.fetchOffsets(asked), transport.requestTimeout(),
                (status, body) -> OffsetsDecoder.decode(body, asked));
    }

    @Override
    public ChangedPage partitionsChanged(List<ChangedQuery> queries) {
        List<ChangedQuery> asked = List.copyOf(queries);
        return transport.call(Route.PARTITIONS_CHANGED, WireRequests.partitionsChanged(asked),
                transport.requestTimeout(), (status, body) -> ChangedDecoder.decode(body, asked));
    }

    @Override
    public KvAnswer kv(List<KvOp> ops) {
        List<KvOp> asked = List.copyOf(ops);
        if (asked.isEmpty()) {
            return new KvAnswer.Results(List.of());
        }
        byte[] request = WireRequests.kv(asked);
        // A 429 changed nothing, so the same batch (a conditional pointer put too) goes again after
        // Retry-After; callers see the 429 only when the broker still refuses after a few seconds.
        return KV_RATE_LIMITS.callThroughRateLimits(() -> transport.call(Route.KV, request, transport.requestTimeout(),
                (status, body) -> KvDecoder.decode(body, asked)));
    }

    @Override
    public List<String> queues() {
        return transport.call(Route.QUEUES, new byte[0], transport.requestTimeout(),
                (status, body) -> SmallAnswers.queueNames(body));
    }

    @Override
    public List<PushResult> push(List<PushItem> items) {
        List<PushItem> asked = List.copyOf(items);
        return transport.call(Route.PUSH, WireRequests.push(asked), transport.requestTimeout(),
                (status, body) -> PushDecoder.decode(body, asked));
    }

    @Override
    public void configure(String queue, QueueOptions options) {
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(options, "options");
        transport.call(Route.CONFIGURE, WireRequests.configure(queue, options), transport.requestTimeout(),
                (status, body) -> null);
    }

    @Override
    public BrokerHealth health() {
        return transport.call(Route.HEALTH, new byte[0], transport.requestTimeout(), SmallAnswers::health);
    }

    @Override
    public String toString() {
        return "HttpQueenClient[" + transport.base() + "]";
    }

    /**
     * Validates everything before a client exists: each refusal is one sentence naming the setting.
     */
    public static final class Builder {

        private String baseUrl;
        private String token;
        private String tenant;
        /**
         * Short, so an unreachable broker shows at once (BrokerOutage's WARN within 15 s): a broker
         * that does not accept the connection in 3 s is down or cut off, and the caller retries.
         */
        private Duration connectTimeout = Duration.ofSeconds(3);
        private Duration requestTimeout = Duration.ofSeconds(30);

        private Builder() {}

        /** The broker, {@code http(s)://host[:port][/path]} (QUEEN_URL); a trailing slash is trimmed. */
        public Builder baseUrl(String baseUrl) {
            this.baseUrl = baseUrl;
            return this;
        }

        /** Sent as {@code Authorization: Bearer <token>} (QUEEN_TOKEN); null or empty sends none. */
        public Builder token(String token) {
            this.token = token;
            return this;
        }

        /** Sent as {@code x-queen-tenant}; a UUID. Null sends none (the default tenant). */
        public Builder tenant(String tenant) {
            this.tenant = tenant;
            return this;
        }

        public Builder connectTimeout(Duration connectTimeout) {
            this.connectTimeout = connectTimeout;
            return this;
        }

        public Builder requestTimeout(Duration requestTimeout) {
            this.requestTimeout = requestTimeout;
            return this;
        }

        public HttpQueenClient build() {
            String base = sanityCheckedBase();
            Optional<String> bearer = Optional.ofNullable(token).filter(t -> !t.isEmpty());
            if (bearer.isPresent() && !QueenNames.isBareToken(bearer.get())) {
                throw new IllegalArgumentException(
                        "the Queen token contains spaces or control characters; set QUEEN_TOKEN to the bare token");
            }
            Optional<String> tenantId = Optional.ofNullable(tenant).filter(t -> !t.isEmpty());
            if (tenantId.isPresent() && !QueenNames.isTenantId(tenantId.get())) {
                throw new IllegalArgumentException("the Queen tenant '" + tenantId.get()
                        + "' is not a UUID (" + QueenNames.TENANT_ID_SHAPE + "); fix the tenant setting");
            }
            tenantId = tenantId.map(t -> UUID.fromString(t).toString());
            requirePositive(connectTimeout, "connect timeout");
            requirePositive(requestTimeout, "request timeout");
            HttpClient http = HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(connectTimeout)
                    .followRedirects(HttpClient.Redirect.NEVER)
                    .build();
            return new HttpQueenClient(new BrokerTransport(http, base, bearer, tenantId, requestTimeout));
        }

        private String sanityCheckedBase() {
            if (baseUrl == null || baseUrl.isBlank()) {
                throw new IllegalArgumentException("the Queen broker URL is missing; set QUEEN_URL, e.g. http://localhost:6632");
            }
            try {
                return BrokerUrl.normalize(baseUrl);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "the Queen broker URL '" + baseUrl + "' " + e.getMessage() + "; fix QUEEN_URL");
            }
        }

        private static void requirePositive(Duration d, String what) {
            if (d == null || d.isZero() || d.isNegative()) {
                throw new IllegalArgumentException("the Queen client's " + what + " must be above zero, was " + d);
            }
        }
    }
}
