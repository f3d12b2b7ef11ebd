package io.queenlake.job.cli;

import java.util.concurrent.CountDownLatch;

/** Blocks a server command until Ctrl-C (or SIGTERM), then lets the shutdown hook close it. */
final class UntilStopped {

    private UntilStopped() {}

    static void await(AutoCloseable server, String name) throws InterruptedException {
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.close();
            } catch (Exception e) {
                System.err.println(name + ": error while stopping: " + e.getMessage());
            }
            System.out.println(name + " stopped");
            stopped.countDown();
        }, name + "-shutdown"));
        stopped.await();
    }
}
