package io.queenlake.broker.kv;

import io.queenlake.format.key.NameEscaping;
import java.util.Objects;

/**
 * The broker KV keys of one sink (LAKE-FORMAT "KV documents"), the only place that spells them:
 * all in namespace {@value #NAMESPACE} of the queue's tenant, names escaped so no queue or instance
 * name can run into another key.
 */
public record SinkKeys(String sink) {

    /** The KV namespace the reference sink and queen-lake share. */
    public static final String NAMESPACE = "queen-s3";

    public SinkKeys {
        Objects.requireNonNull(sink, "sink");
    }

    /** {@code s3:<sink>:<escQueue>:committed}, the commit pointer. */
    public String committed(String queue) {
        return queueKey(queue, "committed");
    }

    /** {@code s3:<sink>:<escQueue>:lease}, who mirrors the queue. */
    public String lease(String queue) {
        return queueKey(queue, "lease");
    }

    /** {@code s3:<sink>:<escQueue>:intent}, the window being committed. */
    public String intent(String queue) {
        return queueKey(queue, "intent");
    }

    /** {@code s3:<sink>:node=<escInstance>}, the presence row of a live instance. */
    public String presence(String instance) {
        return "s3:" + sink + ":node=" + NameEscaping.escape(instance);
    }

    private String queueKey(String queue, String document) {
        return "s3:" + sink + ":" + NameEscaping.escape(queue) + ":" + document;
    }
}
