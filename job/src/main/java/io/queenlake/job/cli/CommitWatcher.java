package io.queenlake.job.cli;

import io.queenlake.broker.kv.CommitPointers;
import io.queenlake.format.key.Prefix;
import io.queenlake.format.key.SidecarKeys;
import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.manifest.ManifestJson;
import io.queenlake.format.model.Micros;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Prints a line each time a window commits, for the demo: polls the KV commit pointer of each
 * queue and, for every window the pointer moved past, reads its manifest from the bucket folder.
 * The pointer is the truth (a window is committed when the pointer says so); the manifest only
 * adds the window's numbers.
 */
final class CommitWatcher implements AutoCloseable {

    private final CommitPointers pointers;
    private final List<String> queues;
    private final Path bucketDir;
    private final Prefix prefix;
    private final String tenant;
    private final Consumer<String> out;
    private final Map<String, Long> seenK = new HashMap<>();
    private final Thread thread;
    private volatile boolean running = true;

    CommitWatcher(CommitPointers pointers, List<String> queues, Path bucketDir, Prefix prefix, String tenant,
            Consumer<String> out) {
        this.pointers = pointers;
        this.queues = List.copyOf(queues);
        this.bucketDir = bucketDir;
        this.prefix = prefix;
        this.tenant = tenant;
        this.out = out;
        this.thread = new Thread(this::loop, "demo-commit-watcher");
        this.thread.setDaemon(true);
    }

    /** Starts watching; windows committed before now are counted, not printed. */
    CommitWatcher start() {
        for (String queue : queues) {
            seenK.put(queue, pointers.read(queue).k());
        }
        thread.start();
        return this;
    }

    private void loop() {
        while (running) {
            for (String queue : queues) {
                try {
                    long k = pointers.read(queue).k();
                    for (long next = seenK.get(queue) + 1; next <= k; next++) {
                        out.accept(line(queue, next));
                    }
                    seenK.put(queue, Math.max(seenK.get(queue), k));
                } catch (RuntimeException e) {
                    if (running) {
                        out.accept("could not read the commit pointer of queue '" + queue + "': " + e.getMessage());
                    }
                }
            }
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private String line(String queue, long k) {
        Path manifest = bucketDir.resolve(new SidecarKeys(prefix, tenant, queue).manifest(k));
        try {
            Manifest m = ManifestJson.read(Files.readAllBytes(manifest));
            return "committed window k=" + k + " of queue '" + queue + "': " + m.records() + " records in "
                    + m.objects().size() + " object(s), " + m.bytes() + " bytes, [" + Micros.render(m.tStart()) + ", "
                    + Micros.render(m.tEnd()) + ")";
        } catch (IOException | RuntimeException e) {
            return "committed window k=" + k + " of queue '" + queue + "' (manifest " + manifest + " not readable: "
                    + e.getMessage() + ")";
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.interrupt();
        thread.join(5_000);
    }
}
