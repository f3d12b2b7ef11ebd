package io.queenlake.broker.client;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * The one place where a broker call meets a socket: builds the request (headers, timeout), sends
 * it over a keep-alive HTTP/1.1 {@link HttpClient}, reads the body as one {@code byte[]}, and
 * turns every failure into a classified {@link QueenException}. It never retries: callers decide.
 */
final class BrokerTransport {

    /** Reads a 2xx (or accepted) answer's body. */
    @FunctionalInterface
    interface Decoder<T> {
        T decode(int status, byte[] body) throws IOException;
    }

    private static final int ERROR_TEXT_LIMIT = 200;

    private final HttpClient http;
    private final String base;
    private final Optional<String> token;
    private final Optional<String> tenant;
    private final Duration requestTimeout;

    BrokerTransport(HttpClient http, String base, Optional<String> token, Optional<String> tenant, Duration requestTimeout) {
        this.http = http;
        this.base = base;
        this.token = token;
        this.tenant = tenant;
        this.requestTimeout = requestTimeout;
    }

    String base() {
        return base;
    }

    Duration requestTimeout() {
        return requestTimeout;
    }

    <T> T call(Route route, byte[] body, Duration timeout, Decoder<T> decoder) {
        HttpResponse<byte[]> response;
        try {
            response = http.send(request(route, body, timeout), HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw QueenException.transport(base, route, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw QueenException.interrupted(base, route, e);
        }
        return answer(route, response, decoder);
    }

    <T> CompletableFuture<T> callAsync(Route route, byte[] body, Duration timeout, Decoder<T> decoder) {
        return http.sendAsync(request(route, body, timeout), HttpResponse.BodyHandlers.ofByteArray())
                .handle((response, failure) -> {
                    if (failure != null) {
                        throw QueenException.transport(base, route, unwrap(failure));
                    }
                    return answer(route, response, decoder);
                });
    }

    private HttpRequest request(Route route, byte[] body, Duration timeout) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + route.path))
                .timeout(timeout)
                .header("Accept", "application/json");
        if (route.method.equals("POST")) {
            b.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofByteArray(body));
        } else {
            b.GET();
        }
        token.ifPresent(t -> b.header("Authorization", "Bearer " + t));
        tenant.ifPresent(t -> b.header("x-queen-tenant", t));
        return b.build();
    }

    private <T> T answer(Route route, HttpResponse<byte[]> response, Decoder<T> decoder) {
        int status = response.statusCode();
        byte[] body = response.body() == null ? new byte[0] : response.body();
        boolean accepted = (status >= 200 && status < 300) || (route == Route.HEALTH && status == 503);
        if (!accepted) {
            throw refusal(route, response, body);
        }
        try {
            return decoder.decode(status, body);
        } catch (EntryMismatchException e) {
            throw QueenException.mismatch(base, route, e.getMessage());
        } catch (IOException | WireFormatException | IllegalArgumentException e) {
            // IllegalArgumentException: a decoded value a wire record refused (a negative offset, ...).
            throw QueenException.body(base, route, describe(e, body), e);
        }
    }

    private QueenException refusal(Route route, HttpResponse<byte[]> response, byte[] body) {
        String error = null;
        String code = null;
        String reason = null;
        try (JsonCursor c = new JsonCursor(body)) {
            c.next();
            c.requireObject("an error body");
            for (String field = c.nextField(); field != null; field = c.nextField()) {
                switch (field) {
                    case "error" -> error = c.optionalText("error");
                    case "code" -> code = c.optionalText("code");
                    // KV refusals name their cause in "reason" (kv_too_many_ops, kv_value_too_large, ...).
                    case "reason" -> reason = c.optionalText("reason");
                    default -> c.skipValue();
                }
            }
        } catch (IOException | RuntimeException notJson) {
            // A plain-text body (413, a proxy's page): keep its start as the broker's words.
            String text = new String(body, 0, Math.min(body.length, ERROR_TEXT_LIMIT), StandardCharsets.UTF_8).strip();
            error = text.isEmpty() ? null : text;
            code = null;
        }
        return QueenException.status(
                base, route, response.statusCode(), error, code != null ? code : reason, retryAfterSeconds(response));
    }

    /** {@code Retry-After} in delta-seconds; an HTTP-date or garbage counts as absent (-1). */
    private static long retryAfterSeconds(HttpResponse<?> response) {
        Optional<String> header = response.headers().firstValue("Retry-After");
        if (header.isEmpty()) {
            return -1;
        }
        String value = header.get().strip();
        if (value.isEmpty() || value.length() > 9 || !value.chars().allMatch(ch -> ch >= '0' && ch <= '9')) {
            return -1;
        }
        return Long.parseLong(value);
    }

    private static String describe(Exception e, byte[] body) {
        String what = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().lines().findFirst().orElse("");
        return what + ", " + body.length + " bytes";
    }

    private static Throwable unwrap(Throwable failure) {
        Throwable t = failure;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
