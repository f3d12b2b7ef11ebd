package io.queenlake.broker.client;

import java.util.Objects;
import java.util.Optional;

/**
 * One record to push (producers, tests, the demo).
 *
 * @param transactionId the dedup key within the partition; empty lets the broker mint one
 * @param payload stored by the broker as this exact JSON text
 */
public record PushItem(String queue, String partition, Optional<String> transactionId, RawJson payload) {

    public PushItem {
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(partition, "partition");
        Objects.requireNonNull(transactionId, "transactionId");
        Objects.requireNonNull(payload, "payload");
    }

    public static PushItem of(String queue, String partition, String transactionId, String payloadJson) {
        return new PushItem(queue, partition, Optional.of(transactionId), RawJson.of(payloadJson));
    }
}
