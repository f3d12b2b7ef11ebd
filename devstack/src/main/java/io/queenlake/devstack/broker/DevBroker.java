package io.queenlake.devstack.broker;

import com.sun.net.httpserver.HttpServer;
import io.queenlake.devstack.broker.JournalEntry.PartitionDeleted;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An in-process broker that answers the Queen MQ routes queen-lake uses ({@code docs/BROKER-API.md})
 * the way the raft broker does: push with dedup, fetch by offset, discovery with safeTime, KV with
 * preconditions, retention with a sink hold, tenancy and an optional static token. This class only
 * wires the parts together: the state and its journal, the routes, the HTTP server, the retention timer.
 */
public final class DevBroker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DevBroker.class);
    private static final int HTTP_THREADS = 32;
    /** The JDK server's switch for TCP_NODELAY on accepted sockets, read once when its config loads. */
    static final String NO_DELAY_PROPERTY = "sun.net.httpserver.nodelay";

    static {
        // Without it, Nagle's algorithm holds the tail of each small answer until the client's
        // delayed ACK (40 ms on Linux): every KV put took 45 ms, so the commit pointer alone capped
        // a queue at about 20 windows a second and a backfill's commits stretched every checkpoint.
        // A real broker answers with TCP_NODELAY; set before the first HttpServer of the JVM.
        if (System.getProperty(NO_DELAY_PROPERTY) == null) {
            System.setProperty(NO_DELAY_PROPERTY, "true");
        }
    }

    private final BrokerState state;
    private final Journal journal;
    private final HttpServer server;
    private final ExecutorService httpThreads;
    private final ScheduledExecutorService retentionTimer;
    private final RetentionPass retention;
    private final URI url;
    /** Null without a KV write budget. */
    private final KvWriteBudget kvBudget;
    private final KvRoute kv;
    private boolean closed;

    private DevBroker(BrokerState state, Journal journal, HttpServer server, ExecutorService httpThreads,
            ScheduledExecutorService retentionTimer, KvWriteBudget kvBudget, KvRoute kv) {
        this.state = state;
        this.kvBudget = kvBudget;
        this.kv = kv;
        this.journal = journal;
        this.server = server;
        this.httpThreads = httpThreads;
        this.retentionTimer = retentionTimer;
        this.retention = new RetentionPass(state);
        String host = server.getAddress().getHostString();
        this.url = URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + server.getAddress().getPort());
    }

    /** Starts serving; with a data dir, first replays what an earlier broker left there. */
    public static DevBroker start(DevBrokerOptions options) throws IOException {
        BrokerState state = new BrokerState(new BrokerClock(options.clock()), options.renderPayloads());
        Journal journal = null;
        if (options.dataDir() != null) {
            journal = Journal.open(options.dataDir(), state::apply);
            journal.rewrite(state.snapshot());
            state.attach(journal);
        }
        state.clock().boot();
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(options.host(), options.port()), 256);
        } catch (IOException e) {
            if (journal != null) {
                journal.close();
            }
            throw new IOException("dev broker cannot listen on " + options.host() + ":" + options.port()
                    + " (" + e.getMessage() + "); pick a free port or 0 for an ephemeral one", e);
        }
        ExecutorService httpThreads = Executors.newFixedThreadPool(HTTP_THREADS, daemonThreads("dev-broker-http"));
        InfoRoutes info = new InfoRoutes(state);
        KvWriteBudget kvBudget = options.kvWriteRate() == 0 ? null : new KvWriteBudget(options.kvWriteRate(), System::nanoTime);
        KvRoute kv = new KvRoute(state, options.kvLatencyMs(), kvBudget);
        server.createContext("/", new BrokerHttp(options.token())
                .route("POST", "/api/v1/push", new PushRoute(state))
                .route("POST", "/api/v1/fetch", new FetchRoute(state))
                .route("POST", "/api/v1/fetch/offsets", new FetchOffsetsRoute(state))
                .route("POST", "/api/v1/partitions/changed", new PartitionsChangedRoute(state))
                .route("POST", "/api/v1/kv", kv)
                .route("POST", "/api/v1/configure", new ConfigureRoute(state))
                .route("GET", "/api/v1/resources/queues", info.queues())
                .route("GET", "/health", info.health())
                .route("GET", "/status", info.status())
                .route("GET", "/metrics/prometheus", info.metrics()));
        server.setExecutor(httpThreads);
        server.start();
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(daemonThreads("dev-broker-retention"));
        DevBroker broker = new DevBroker(state, journal, server, httpThreads, timer, kvBudget, kv);
        timer.scheduleWithFixedDelay(broker::retentionTick, 1, 1, TimeUnit.SECONDS);
        LOG.info("dev broker listening on {}{}", broker.url, options.dataDir() == null ? "" : " with data in " + options.dataDir());
        return broker;
    }

    /** {@code http://127.0.0.1:<port>}, no trailing slash. */
    public URI url() {
        return url;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** The KV write calls answered 429 for being over the write budget so far; 0 without a budget. */
    public long kvWritesRefused() {
        return kvBudget == null ? 0 : kvBudget.refused();
    }

    /** KV calls served so far that held a write (refused ones excluded): what the KV write budget counts. */
    public long kvWriteCalls() {
        return kv.writeCalls();
    }

    /** KV calls served so far that only read. */
    public long kvReadCalls() {
        return kv.readCalls();
    }

    /** One retention pass now (it also runs by itself every second). */
    public void runRetentionNow() {
        try {
            retention.run();
        } catch (IOException e) {
            throw new UncheckedIOException("dev broker could not journal a retention pass", e);
        }
    }

    /** Deletes a partition's current incarnation; the next push re-creates it with a new id and offsets from 0. */
    public void deletePartition(String tenant, String queue, String partition) {
        try {
            state.write(change -> {
                BrokerQueue q = state.queue(tenant, queue);
                if (q == null || q.partition(partition) == null) {
                    throw new IllegalArgumentException("partition " + partition + " of queue " + queue + " (tenant "
                            + tenant + ") does not exist; push to it before deleting it");
                }
                change.stamp();
                change.apply(new PartitionDeleted(tenant, queue, partition));
                return null;
            });
        } catch (IOException e) {
            throw new UncheckedIOException("dev broker could not journal the deletion of " + partition, e);
        }
    }

    /** Stops serving; with a data dir, everything needed to restart is on disk. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        retentionTimer.shutdownNow();
        server.stop(0);
        httpThreads.shutdownNow();
        try {
            retentionTimer.awaitTermination(5, TimeUnit.SECONDS);
            httpThreads.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (journal != null) {
            try {
                state.detachJournal();
            } catch (IOException e) {
                throw new UncheckedIOException("dev broker could not close its journal", e);
            }
        }
    }

    private void retentionTick() {
        try {
            retention.run();
        } catch (RuntimeException | IOException e) {
            LOG.warn("dev broker retention pass failed", e);
        }
    }

    private static ThreadFactory daemonThreads(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
