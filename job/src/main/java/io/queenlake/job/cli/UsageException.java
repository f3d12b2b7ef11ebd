package io.queenlake.job.cli;

/** A command line the user can fix; its message is the one sentence printed before exit code 2. */
final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
        super(message);
    }
}
