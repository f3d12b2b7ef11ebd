package io.queenlake.broker.client;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * One stream of broker calls shared by many threads: submitted ops wait in arrival order, and one
 * daemon thread takes all that wait (at most {@code maxPerCall}), makes one call of them and hands
 * each op its answer. Ops that arrive while a call is in flight go in the next call: batching
 * without a fixed linger, and never more than one call of the stream in flight.
 */
final class CallStream<Q, A> {

    /** One call of many ops; the answers index-aligned with them. A throw fails every op of the call. */
    @FunctionalInterface
    interface Call<Q, A> {
        List<A> make(List<Q> ops);
    }

    /** Waits, before each call, until the call may start (the write budget's pacing). */
    @FunctionalInterface
    interface Turn {
        void await() throws InterruptedException;

        Turn NONE = () -> {};
    }

    private record Waiting<Q, A>(Q op, CompletableFuture<A> answer) {}

    private final int maxPerCall;
    private final Turn turn;
    private final Call<Q, A> call;
    private final String closedMessage;
    private final LinkedBlockingQueue<Waiting<Q, A>> waiting = new LinkedBlockingQueue<>();
    private final Thread thread;
    private final Object lock = new Object();
    private volatile boolean closed;

    CallStream(String threadName, int maxPerCall, Turn turn, Call<Q, A> call, String closedMessage) {
        this.maxPerCall = maxPerCall;
        this.turn = turn;
        this.call = call;
        this.closedMessage = closedMessage;
        this.thread = new Thread(this::run, threadName);
        // Lanes wait on it, nothing else should keep a JVM alive for it.
        thread.setDaemon(true);
        thread.start();
    }

    /** Queues {@code op} for the next call; the future completes with its answer or its call's failure. */
    CompletableFuture<A> submit(Q op) {
        CompletableFuture<A> answer = new CompletableFuture<>();
        // Under the lock so that close() never misses an op queued while it drains.
        synchronized (lock) {
            if (closed) {
                throw new IllegalStateException(closedMessage);
            }
            waiting.add(new Waiting<>(op, answer));
        }
        return answer;
    }

    /** The ops queued for a call not yet started. */
    int waiting() {
        return waiting.size();
    }

    /** Fails every op not yet sent; a call in flight is interrupted and answers what the interrupt leaves. */
    void close() {
        synchronized (lock) {
            closed = true;
        }
        thread.interrupt();
        List<Waiting<Q, A>> unsent = new ArrayList<>();
        waiting.drainTo(unsent);
        fail(unsent, new IllegalStateException(closedMessage));
    }

    private void run() {
        List<Waiting<Q, A>> batch = new ArrayList<>(maxPerCall);
        try {
            while (!closed) {
                batch.add(waiting.take());
                turn.await();
                // Drained after the turn, so ops that arrive during the pacing wait ride along.
                waiting.drainTo(batch, maxPerCall - 1);
                answer(batch);
                batch.clear();
            }
        } catch (InterruptedException closing) {
            fail(batch, new IllegalStateException(closedMessage));
        }
    }

    private void answer(List<Waiting<Q, A>> batch) {
        List<A> answers;
        try {
            answers = call.make(batch.stream().map(Waiting::op).toList());
        } catch (RuntimeException | Error failure) {
            fail(batch, failure);
            return;
        }
        for (int i = 0; i < batch.size(); i++) {
            batch.get(i).answer().complete(answers.get(i));
        }
    }

    private static <Q, A> void fail(List<Waiting<Q, A>> ops, Throwable failure) {
        ops.forEach(w -> w.answer().completeExceptionally(failure));
    }
}
