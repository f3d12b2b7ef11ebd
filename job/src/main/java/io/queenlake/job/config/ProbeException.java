package io.queenlake.job.config;

/** The start probe found the broker or the bucket unusable; the message says what to check, in one line. */
public final class ProbeException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ProbeException(String message, Throwable cause) {
        super(message, cause);
    }
}
