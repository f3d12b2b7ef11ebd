package io.queenlake.broker.client;

/**
 * The answer of the public {@code GET /health}.
 *
 * @param httpStatus 200 when healthy; a real broker answers 503 while it is settling
 * @param status the broker's {@code status} field ({@code healthy}, {@code settling}, ...)
 */
public record BrokerHealth(int httpStatus, String status) {

    public boolean healthy() {
        return httpStatus == 200;
    }
}
