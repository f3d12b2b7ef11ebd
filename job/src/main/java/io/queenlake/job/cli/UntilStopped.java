package io.queenlake.job.cli;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import sun.misc.Signal;

/**
 * How a command that runs until stopped ends: Ctrl-C (SIGINT) or SIGTERM asks it to stop, the
 * command closes what it started and returns, and the launcher exits 0 (the JVM's own handling of
 * those signals would exit 130 or 143 after its shutdown hooks, a failure to any supervisor). A
 * second signal while it stops halts at once, with the JVM's code. Should the JVM end another way
 * (SIGHUP, an exit elsewhere), a shutdown hook still closes what was started.
 */
final class UntilStopped {

    private final String name;
    private final String stoppedLine;
    private volatile AutoCloseable target;
    private final CompletableFuture<String> requested = new CompletableFuture<>();
    private final AtomicBoolean closed = new AtomicBoolean();

    private UntilStopped(String name, String stoppedLine) {
        this.name = name;
        this.stoppedLine = stoppedLine;
    }

    /**
     * Takes over SIGINT and SIGTERM, before the command starts anything: a signal while it starts is
     * kept in {@link #requested()}, and what it started ({@link #closes}) is closed once it is up.
     *
     * @param stoppedLine what to print once what was started is closed
     */
    static UntilStopped watch(String name, String stoppedLine) {
        UntilStopped until = new UntilStopped(name, stoppedLine);
        for (String signal : List.of("INT", "TERM")) {
            try {
                Signal.handle(new Signal(signal), until::onSignal);
            } catch (IllegalArgumentException reservedByTheJvm) {
                // -Xrs or a platform without it: the shutdown hook below still closes the target
            }
        }
        Runtime.getRuntime().addShutdownHook(new Thread(until::close, name + "-shutdown"));
        return until;
    }

    /** Blocks a server command until Ctrl-C or SIGTERM, then closes what it started. */
    static void await(AutoCloseable server, String name) throws InterruptedException {
        UntilStopped until = watch(name, name + " stopped").closes(server);
        until.awaitRequest();
        until.close();
    }

    private void onSignal(Signal signal) {
        if (!requested.complete("SIG" + signal.getName())) {
            System.err.println(name + ": SIG" + signal.getName() + " again while stopping: stopping at once");
            Runtime.getRuntime().halt(128 + signal.getNumber());
        }
    }

    /** What {@link #close()} closes: what the command started, once it is up. */
    UntilStopped closes(AutoCloseable started) {
        this.target = started;
        return this;
    }

    /** Completes with the signal's name ({@code SIGTERM}, {@code SIGINT}) when one asks to stop. */
    CompletableFuture<String> requested() {
        return requested;
    }

    void awaitRequest() throws InterruptedException {
        try {
            requested.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    /** Closes the target once and prints the stopped line; later calls do nothing. */
    void close() {
        closeOnce(true);
    }

    /** Closes the target once without a line: the command ends with its own (a failure). */
    void closeSilently() {
        closeOnce(false);
    }

    private void closeOnce(boolean announce) {
        AutoCloseable started = target;
        if (started == null || !closed.compareAndSet(false, true)) {
            return;
        }
        try {
            started.close();
            if (announce) {
                System.out.println(stoppedLine);
            }
        } catch (Exception e) {
            System.err.println(name + ": error while stopping: " + e.getMessage());
        }
    }
}
