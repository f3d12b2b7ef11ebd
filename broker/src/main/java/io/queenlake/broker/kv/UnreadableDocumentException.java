package io.queenlake.broker.kv;

/**
 * A KV document of this sink that does not decode. The one rule for such a document, wherever it is
 * read: it is never taken for absent and never overwritten, since nobody can tell what it stood
 * for; the job stops with one sentence naming the key and what to do. (An unreadable lease is the
 * exception that proves the rule: it is someone else's until its TTL frees it, see
 * {@link LeaseKeeper}.)
 */
public final class UnreadableDocumentException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    UnreadableDocumentException(String what, String key, String queue, String broker, RuntimeException cause) {
        super("the " + what + " " + key + " of queue '" + queue + "' on the broker at " + broker
                + " cannot be decoded (" + cause.getMessage() + "): fix or delete it in namespace "
                + SinkKeys.NAMESPACE + " before starting the job", cause);
    }
}
