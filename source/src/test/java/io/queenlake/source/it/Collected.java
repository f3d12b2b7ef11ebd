package io.queenlake.source.it;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.flink.util.CloseableIterator;

/**
 * A running job's collected output, read on a thread of its own so a test can wait for a count
 * and then check that nothing more arrives. A job failure ends the collection and is kept.
 */
final class Collected implements AutoCloseable {

    private final CloseableIterator<String> iterator;
    private final List<String> lines = Collections.synchronizedList(new ArrayList<>());
    private final Thread reader;
    private volatile Throwable failure;

    Collected(CloseableIterator<String> iterator) {
        this.iterator = iterator;
        this.reader = new Thread(this::drain, "collected-reader");
        reader.setDaemon(true);
        reader.start();
    }

    private void drain() {
        try {
            while (iterator.hasNext()) {
                lines.add(iterator.next());
            }
        } catch (Throwable t) {
            failure = t;
        }
    }

    int size() {
        return lines.size();
    }

    List<String> lines() {
        synchronized (lines) {
            return List.copyOf(lines);
        }
    }

    Throwable failure() {
        return failure;
    }

    /** Throws the job's failure, if it failed. */
    void rethrowFailure() {
        if (failure != null) {
            throw new AssertionError("the job failed: " + failure, failure);
        }
    }

    @Override
    public void close() throws Exception {
        iterator.close();
        reader.join(10_000);
    }
}
