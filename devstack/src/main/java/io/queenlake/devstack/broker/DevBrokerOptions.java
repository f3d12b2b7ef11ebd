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

    private DevBrokerOptions(Builder b) {
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

    /** Fluent setters with the defaults of a local dev broker. */
    public static final class Builder {
        private String host = "127.0.0.1";
        private int port = 0;
        private Path dataDir;
        private String token;
        private LongSupplier nowMicros = Builder::systemMicros;
        private boolean renderPayloads;

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

        public DevBrokerOptions build() {
            return new DevBrokerOptions(this);
        }

        private static long systemMicros() {
            java.time.Instant now = java.time.Instant.now();
            return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
        }
    }
}
