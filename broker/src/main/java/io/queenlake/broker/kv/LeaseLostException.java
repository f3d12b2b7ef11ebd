package io.queenlake.broker.kv;

/**
 * A lease refresh lost its precondition: someone else holds the queue now (or the lease expired
 * before it was refreshed), so this job must stop mirroring it. Failing the job is the answer; the
 * message names the queue and the holder.
 */
public final class LeaseLostException extends RuntimeException {

    private final String queue;

    LeaseLostException(String queue, String message) {
        super(message);
        this.queue = queue;
    }

    public String queue() {
        return queue;
    }
}
