package io.queenlake.broker.client;

/** An answer whose entries do not line up with the request's; becomes a retriable mismatch error. */
final class EntryMismatchException extends RuntimeException {

    EntryMismatchException(String message) {
        super(message);
    }
}
