package io.queenlake.devstack.broker;

import com.fasterxml.jackson.core.exc.StreamWriteException;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.queenlake.broker.client.QueenNames;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP front door: checks the bearer token (public paths excepted), resolves the tenant from
 * {@code x-queen-tenant}, reads the body within the 64 MiB limit, dispatches to a {@link Route} by
 * method and path, and turns refusals into the broker's error envelope.
 */
final class BrokerHttp implements HttpHandler {

    static final int MAX_BODY_BYTES = 64 << 20;
    static final String TENANT_HEADER = "x-queen-tenant";
    private static final Set<String> PUBLIC_PATHS = Set.of("/health", "/metrics", "/metrics/prometheus", "/");
    private static final Logger LOG = LoggerFactory.getLogger(BrokerHttp.class);

    private final Map<String, Route> routes = new HashMap<>();
    private final byte[] token;

    BrokerHttp(String token) {
        this.token = token == null ? null : token.getBytes(StandardCharsets.UTF_8);
    }

    BrokerHttp route(String method, String path, Route route) {
        routes.put(method + " " + path, route);
        return this;
    }

    @Override
    public void handle(HttpExchange exchange) {
        Reply reply = new Reply(exchange);
        try {
            String method = exchange.getRequestMethod().toUpperCase(Locale.ROOT);
            String path = exchange.getRequestURI().getPath();
            boolean isPublic = PUBLIC_PATHS.contains(path);
            if (!isPublic) {
                authenticate(exchange);
            }
            Route route = routes.get(method + " " + path);
            if (route == null) {
                boolean otherMethod = routes.keySet().stream().anyMatch(k -> k.endsWith(" " + path));
                throw otherMethod
                        ? new WireError(405, "method_not_allowed", method + " is not allowed on " + path)
                        : new WireError(404, "not_found", "no route " + method + " " + path + " on this broker");
            }
            String tenant = isPublic ? Tenant.DEFAULT_ID : tenant(exchange);
            byte[] body = "POST".equals(method) || "PUT".equals(method) ? body(exchange) : new byte[0];
            route.handle(new Route.Call(tenant, body, exchange.getRequestURI().getRawQuery()), reply);
        } catch (WireError e) {
            answer(reply, e);
        } catch (StreamWriteException e) {
            // a route writing its answer out of order: a bug to see, not a lost connection
            LOG.warn("dev broker failed on {} {}", exchange.getRequestMethod(), exchange.getRequestURI(), e);
            answer(reply, new WireError(500, "internal", "the dev broker failed: " + e));
        } catch (UncheckedIOException | IOException e) {
            LOG.debug("connection lost while answering {}", exchange.getRequestURI(), e);
        } catch (RuntimeException e) {
            LOG.warn("dev broker failed on {} {}", exchange.getRequestMethod(), exchange.getRequestURI(), e);
            answer(reply, new WireError(500, "internal", "the dev broker failed: " + e));
        } finally {
            exchange.close();
        }
    }

    private void answer(Reply reply, WireError e) {
        if (reply.started()) {
            return;
        }
        try {
            reply.error(e);
        } catch (IOException | UncheckedIOException gone) {
            LOG.debug("could not send {}", e.getMessage(), gone);
        }
    }

    private void authenticate(HttpExchange exchange) {
        if (token == null) {
            return;
        }
        String header = exchange.getRequestHeaders().getFirst("Authorization");
        if (header == null || header.isBlank()) {
            throw new WireError(401, "unauthorized", "Authentication required");
        }
        String presented = header.regionMatches(true, 0, "Bearer ", 0, 7) ? header.substring(7).trim() : header.trim();
        if (!MessageDigest.isEqual(token, presented.getBytes(StandardCharsets.UTF_8))) {
            throw new WireError(401, "unauthorized", "Invalid token");
        }
    }

    private static String tenant(HttpExchange exchange) {
        String value = exchange.getRequestHeaders().getFirst(TENANT_HEADER);
        if (value == null) {
            return Tenant.DEFAULT_ID;
        }
        String trimmed = value.trim();
        if (!QueenNames.isTenantId(trimmed)) {
            throw WireError.badRequest("invalid x-queen-tenant header (must be a UUID)");
        }
        return trimmed.toLowerCase(Locale.ROOT);
    }

    /** Reads the body within the limit; an oversized one is drained (not kept) so the client gets to read the 413. */
    private static byte[] body(HttpExchange exchange) throws IOException {
        try (InputStream in = exchange.getRequestBody()) {
            byte[] body = in.readNBytes(MAX_BODY_BYTES + 1);
            if (body.length > MAX_BODY_BYTES) {
                in.transferTo(OutputStream.nullOutputStream());
                throw tooLarge();
            }
            return body;
        }
    }

    private static WireError tooLarge() {
        return new WireError(413, "payload_too_large", "the request body exceeds 64 MiB; send smaller batches");
    }
}
