package io.queenlake.format.window;

import java.util.Objects;

/** The tenant and queue an object belongs to (unescaped names). */
public record ObjectLabels(String tenant, String queue) {
    public ObjectLabels {
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(queue, "queue");
    }
}
