package io.queenlake.format.window;

import io.queenlake.format.codec.Labels;
import java.util.Objects;

/** The tenant and queue an object belongs to (unescaped names). */
public record ObjectLabels(String tenant, String queue) implements Labels {
    public ObjectLabels {
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(queue, "queue");
    }
}
