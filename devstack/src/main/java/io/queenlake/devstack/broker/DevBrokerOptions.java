package io.queenlake.devstack.broker;

import java.nio.file.Path;
import java.util.Objects;
import java.util.function.LongSupplier;

/** How a {@link DevBroker} listens, where it keeps its state, who may call it and which clock stamps its records. */
public final class DevBrokerOptions {

    private final String host;
    private final int port;
    private final Path dataDir;
    private final String token;
    private final LongSupplier nowMicros;
    private final boolean renderPayloads;
    private final long kvLatencyMs;
    private final int kvWriteRate;

    private DevBrokerOptions(Builder b) {
        this.kvLatencyMs = b.kvLatencyMs;
        this.kvWriteRate = b.kvWriteRate;
        this.renderPayloads = b.renderPayloads;
        this.host = b.host;
        this.port = b.port;
        this.dataDir = b.dataDir;
        this.token = b.token;
        this.nowMicros = b.nowMicros;
    }

    public static Builder builder() {
        return new Builder();
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    /** The directory holding the journal, or null for a broker that forgets everything on close. */
    public Path dataDir() {
        return dataDir;
    }

    /** The static bearer token every non-public route requires, or null for no authentication. */
    public String token() {
        return token;
    }

    /** The broker's clock in microseconds since the epoch. */
    public LongSupplier clock() {
        return nowMicros;
    }

    /**
     * Whether fetch answers carry each payload as Queen's raft broker renders it over HTTP (parsed
     * and printed again by serde_json: no whitespace, keys sorted, numbers re-printed; see
     * {@code RenderedPayload}) rather than the stored text. Off by default: the stored text, as
     * Queen's in-process path hands it to its embedded sink.
     */
    public boolean renderPayloads() {
        return renderPayloads;
    }

    /** How long every KV call waits before it is served; 0 for none. */
    public long kvLatencyMs() {
        return kvLatencyMs;
    }

    /**
     * The KV write calls (calls holding a put, putIfAbsent or delete) each tenant may make a second,
     * as Queen's budget (about 100 over HTTP); a call over it is answered 429 with {@code Retry-After}
     * and changes nothing. 0, the default, for no budget.
     */
    public int kvWriteRate() {
        return kvWriteRate;
    }

    /** Fluent setters with the defaults of a local dev broker. */
    public static final class Builder {
        private String host = "127.0.0.1";
        private int port = 0;
        private Path dataDir;
        private String token;
        private LongSupplier nowMicros = Builder::systemMicros;
        private boolean renderPayloads;
        private long kvLatencyMs;
        private int kvWriteRate;

        private Builder() {}

        public Builder host(String host) {
            this.host = Objects.requireNonNull(host, "host");
            return this;
        }

        /** 0 picks an ephemeral port. */
        public Builder port(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port " + port + " is not a TCP port: use 0..65535 (0 = ephemeral)");
            }
            this.port = port;
            return this;
        }

        public Builder dataDir(Path dataDir) {
            this.dataDir = dataDir;
            return this;
        }

        public Builder token(String token) {
            if (token != null && token.isBlank()) {
                throw new IllegalArgumentException("token is blank: pass null for no authentication or a non-blank token");
            }
            this.token = token;
            return this;
        }

        public Builder clock(LongSupplier nowMicros) {
            this.nowMicros = Objects.requireNonNull(nowMicros, "clock");
            return this;
        }

        public Builder renderPayloads(boolean renderPayloads) {
            this.renderPayloads = renderPayloads;
            return this;
        }

        /** Every KV call waits this long (a real broker's round trip and raft commit); 0 for none. */
        public Builder kvLatencyMs(long kvLatencyMs) {
            if (kvLatencyMs < 0) {
                throw new IllegalArgumentException("kvLatencyMs " + kvLatencyMs + " is negative: use 0 (none) or milliseconds");
            }
            this.kvLatencyMs = kvLatencyMs;
            return this;
        }

        /** KV write calls per second per tenant; 0 for no budget. */
        public Builder kvWriteRate(int kvWriteRate) {
            if (kvWriteRate < 0) {
                throw new IllegalArgumentException("kvWriteRate " + kvWriteRate + " is negative: use 0 (no budget) or calls a second");
            }
            this.kvWriteRate = kvWriteRate;
            return this;
        }

        public DevBrokerOptions build() {
            return new DevBrokerOptions(this);
        }

        private static long systemMicros() {
            java.time.Instant now = java.time.Instant.now();
            return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
        }
    }
}
