package io.queenlake.broker.client;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * A broker call that failed, classified as the reference sink classifies it: transport
 * failures, undecodable or mismatched answers, 408, 429 and 5xx are retriable; 400, 401, 403,
 * 404, 409, 413 and every other 4xx are terminal.
 *
 * <p>The message is one sentence naming the broker, the route and what to check.
 */
public final class QueenException extends RuntimeException {

    /** What went wrong, before any status. */
    public enum Kind {
        /** The broker could not be reached, or the connection broke or timed out. */
        TRANSPORT,
        /** The broker answered with a non-2xx status. */
        STATUS,
        /** The answer could not be decoded (truncated, not JSON, missing fields). */
        BODY,
        /** The answer's entries do not match the request's (count, queue, partition). */
        MISMATCH,
        /** The calling thread was interrupted while waiting for the broker. */
        INTERRUPTED
    }

    private final Kind kind;
    private final String route;
    private final int status;
    private final String brokerError;
    private final String brokerCode;
    private final long retryAfterSeconds;

    private QueenException(
            Kind kind, String route, int status, String brokerError, String brokerCode, long retryAfterSeconds,
            String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
        this.route = route;
        this.status = status;
        this.brokerError = brokerError;
        this.brokerCode = brokerCode;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    static QueenException transport(String broker, Route route, Throwable cause) {
        String what = cause.getMessage() != null ? cause.getMessage()
                : cause instanceof java.net.ConnectException ? "connection refused" : cause.getClass().getSimpleName();
        return new QueenException(Kind.TRANSPORT, route.toString(), 0, null, null, -1,
                "could not complete " + route + " on the broker at " + broker + " (" + what
                        + "): check QUEEN_URL and that the broker is up; the call is retriable",
                cause);
    }

    static QueenException interrupted(String broker, Route route, InterruptedException cause) {
        return new QueenException(Kind.INTERRUPTED, route.toString(), 0, null, null, -1,
                "the wait for " + route + " on the broker at " + broker + " was interrupted; the task is stopping",
                cause);
    }

    static QueenException body(String broker, Route route, String detail, Throwable cause) {
        return new QueenException(Kind.BODY, route.toString(), 200, null, null, -1,
                "the broker at " + broker + " answered " + route + " with a body that cannot be decoded (" + detail
                        + "): check that QUEEN_URL points at a Queen broker; the call is retriable",
                cause);
    }

    static QueenException mismatch(String broker, Route route, String detail) {
        return new QueenException(Kind.MISMATCH, route.toString(), 200, null, null, -1,
                "the broker at " + broker + " answered " + route + " with entries that do not match the request ("
                        + detail + "): check that QUEEN_URL names one broker node, not a proxy mixing answers; "
                        + "the call is retriable",
                null);
    }

    static QueenException status(
            String broker, Route route, int status, String error, String code, long retryAfterSeconds) {
        String said = said(status, error, code);
        String message = switch (status) {
            case 400 -> "the broker at " + broker + " refused " + route + " as a bad request (" + said
                    + "): the request is wrong and will not be retried";
            case 401 -> "the broker at " + broker + " refused the token on " + route + " (" + said
                    + "): check QUEEN_TOKEN";
            case 403 -> "the broker at " + broker + " denied " + route + " to this token (" + said
                    + "): give QUEEN_TOKEN the role the route needs (read-only for fetch and discovery, "
                    + "read-write for KV, write-only for push)";
            case 404 -> "the broker at " + broker + " has no route " + route + " (" + said
                    + "): check that QUEEN_URL points at a Queen broker";
            case 409 -> "the broker at " + broker + " refused " + route + " as a conflict (" + said
                    + "): the request will not be retried";
            case 413 -> "the broker at " + broker + " refused " + route + " as too large (" + said
                    + "): send fewer entries or smaller values (64 MiB per request, 64 KiB per KV value)";
            case 408 -> "the broker at " + broker + " timed out on " + route + " (" + said + "): the call is retriable";
            case 429 -> "the broker at " + broker + " is rate limiting " + route + " (" + said + "): retry after "
                    + (retryAfterSeconds >= 0 ? retryAfterSeconds + " s" : "a backoff")
                    + ", or lower the call rate";
            default -> status >= 500
                    ? "the broker at " + broker + " failed " + route + " (" + said + "): the call is retriable"
                            + (retryAfterSeconds >= 0 ? " after " + retryAfterSeconds + " s" : "")
                    : "the broker at " + broker + " refused " + route + " (" + said
                            + "): the request will not be retried";
        };
        return new QueenException(Kind.STATUS, route.toString(), status, error, code, retryAfterSeconds, message, null);
    }

    private static String said(int status, String error, String code) {
        StringBuilder s = new StringBuilder().append(status);
        if (error != null && !error.isEmpty()) {
            s.append(' ').append(error);
        }
        if (code != null && !code.isEmpty() && !code.equals(error)) {
            s.append(" [").append(code).append(']');
        }
        return s.toString();
    }

    public Kind kind() {
        return kind;
    }

    /** The route as {@code METHOD path}. */
    public String route() {
        return route;
    }

    /** The HTTP status; 0 when no answer arrived. */
    public int status() {
        return status;
    }

    /** The broker's {@code error} message, when the body carried one. */
    public Optional<String> brokerError() {
        return Optional.ofNullable(brokerError);
    }

    /** The broker's {@code code} ({@code no_leader}, {@code retry}, ...), when the body carried one. */
    public Optional<String> brokerCode() {
        return Optional.ofNullable(brokerCode);
    }

    /** {@code Retry-After} in delta-seconds, when the broker sent it in that form. */
    public OptionalLong retryAfterSeconds() {
        return retryAfterSeconds >= 0 ? OptionalLong.of(retryAfterSeconds) : OptionalLong.empty();
    }

    /**
     * Whether the broker refused this client's token: 401 (no token, a wrong or expired one) or 403
     * (a token without the role the route needs). No retry or restart heals it; the token must change.
     */
    public boolean refusesToken() {
        return kind == Kind.STATUS && (status == 401 || status == 403);
    }

    /** Whether the same call may succeed later. */
    public boolean retriable() {
        return switch (kind) {
            case TRANSPORT, BODY, MISMATCH -> true;
            case INTERRUPTED -> false;
            case STATUS -> status == 408 || status == 429 || status >= 500;
        };
    }
}
