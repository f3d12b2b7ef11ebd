package io.queenlake.broker.client;

import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * Group commit for the KV: single puts and gets submitted concurrently by many threads (one lane a
 * queue) share multi-op KV calls, so thousands of queues stay within the broker's per-tenant KV
 * write budget (about 100 write calls a second). Writes and reads are two streams of calls that
 * never mix; each has at most one call in flight, and what arrives meanwhile goes in its next call
 * (at most {@value KvOp#MAX_OPS} ops). Write calls are paced to {@code maxWriteCallsPerSecond};
 * reads are not budgeted, so not paced.
 *
 * <p>Each put keeps its own {@code expect} and is never {@code required}: a lost precondition is
 * that put's {@code applied:false}, the others of the call still apply. A call that fails as a
 * whole (after the client's own retries, a 429 included) fails every op of it with that very
 * exception, a {@link QueenException} keeping its retriable verdict. Callers block.
 */
public final class KvBatcher implements AutoCloseable {

    private final QueenClient client;
    private final KvWriteCalls writeCalls;
    private final KvReadCalls readCalls;
    private final CallStream<KvOp.Put, KvResult> writes;
    private final CallStream<KvReadCalls.Key, Optional<KvRow>> reads;

    /** Starts the two daemon threads that make the calls; {@link #close} stops them. */
    public KvBatcher(QueenClient client, double maxWriteCallsPerSecond) {
        this(client, new CallPacing(maxWriteCallsPerSecond, System::nanoTime, CallPacing.NANO_SLEEP));
    }

    KvBatcher(QueenClient client, CallStream.Turn writePacing) {
        this.client = Objects.requireNonNull(client, "client");
        this.writeCalls = new KvWriteCalls(client);
        this.readCalls = new KvReadCalls(client);
        String closed = "the KV batcher for the broker at " + client.broker()
                + " was closed before this KV operation was sent, so it was not applied (the task is stopping)";
        this.writes = new CallStream<>("kv-batcher-writes " + client.broker(), KvOp.MAX_OPS, writePacing, writeCalls, closed);
        this.reads = new CallStream<>("kv-batcher-reads " + client.broker(), KvOp.MAX_OPS, CallStream.Turn.NONE, readCalls, closed);
    }

    /**
     * Puts {@code op} in the next shared write call and waits for its result: {@code applied}, or
     * not with the winner's value and version.
     *
     * @throws IllegalArgumentException when {@code op} is {@code required}: it would roll back the call's other puts
     * @throws QueenException when the call failed as a whole
     */
    public KvResult.Written put(KvOp.Put op) {
        if (op.required()) {
            throw new IllegalArgumentException("a put through the KV batcher must not be required (" + op.key()
                    + "): a lost precondition would roll back every other put of the shared call");
        }
        KvResult result = await(writes.submit(op));
        if (result instanceof KvResult.Written written) {
            return written;
        }
        throw new IllegalStateException("the broker at " + client.broker() + " answered a KV put of " + op.key()
                + " with " + result + ": check that QUEEN_URL points at a Queen broker");
    }

    /**
     * Reads {@code key} in the next shared read call: its row, or empty when absent or expired.
     *
     * @throws QueenException when the call failed as a whole
     */
    public Optional<KvRow> get(String ns, String key) {
        return await(reads.submit(new KvReadCalls.Key(Objects.requireNonNull(ns, "ns"), Objects.requireNonNull(key, "key"))));
    }

    /** The write calls made so far (a call the client retried after a 429 counts once). */
    public long writeCalls() {
        return writeCalls.calls();
    }

    /** The puts sent in those calls. */
    public long writeOps() {
        return writeCalls.ops();
    }

    /** The read calls made so far. */
    public long readCalls() {
        return readCalls.calls();
    }

    /** The keys read in those calls (a key many threads asked for at once counts once). */
    public long readKeys() {
        return readCalls.keys();
    }

    /** The puts waiting for a write call that has not started. */
    int waitingWrites() {
        return writes.waiting();
    }

    /** The gets waiting for a read call that has not started. */
    int waitingReads() {
        return reads.waiting();
    }

    /** Fails every op not yet sent with an {@link IllegalStateException} saying so; later ops are refused alike. */
    @Override
    public void close() {
        writes.close();
        reads.close();
    }

    private <A> A await(CompletableFuture<A> answer) {
        try {
            return answer.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw QueenException.interrupted(client.broker(), Route.KV, e);
        } catch (ExecutionException e) {
            // The call's own exception, so callers' retriable/terminal handling keeps working.
            if (e.getCause() instanceof RuntimeException failure) {
                throw failure;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(e.getCause());
        }
    }
}
