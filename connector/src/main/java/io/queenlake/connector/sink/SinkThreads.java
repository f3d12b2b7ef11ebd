package io.queenlake.connector.sink;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.annotation.Internal;

/**
 * The sink's own thread pools (the writer's uploads, the committer's queues and bucket calls):
 * a fixed number of daemon threads named for the sink and its part, so a thread dump tells them
 * apart, carrying the task's class loader, idle threads ending after 30 s.
 */
@Internal
public final class SinkThreads {

    private SinkThreads() {}

    /** A pool of at most {@code threads} daemon threads named {@code name-1}, {@code name-2}, ... */
    public static ExecutorService pool(int threads, String name) {
        // Plugins (the s3 file system) may resolve classes through the task's loader.
        ClassLoader taskLoader = Thread.currentThread().getContextClassLoader();
        AtomicInteger n = new AtomicInteger();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), r -> {
                    Thread t = new Thread(r, name + "-" + n.incrementAndGet());
                    t.setDaemon(true);
                    t.setContextClassLoader(taskLoader);
                    return t;
                });
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }
}
