package io.queenlake.broker.client;

/** An answer that does not have the shape the wire contract promises; becomes a retriable body error. */
final class WireFormatException extends RuntimeException {

    WireFormatException(String message) {
        super(message);
    }
}
