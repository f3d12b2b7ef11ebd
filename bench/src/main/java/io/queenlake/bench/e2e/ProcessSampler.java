package io.queenlake.bench.e2e;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/**
 * What one run costs this JVM: process CPU time between start and stop, and the peak of used heap,
 * sampled every {@value #SAMPLE_MS} ms by a daemon thread. The broker and the S3 server run in the
 * same JVM, so both figures include serving the fetches and storing the objects: the same for
 * every run.
 */
final class ProcessSampler implements AutoCloseable {

    private static final long SAMPLE_MS = 50;

    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final long cpuAtStart;
    private final Thread sampler;
    private volatile long peakHeap;
    private volatile boolean stopped;
    private long cpuNanos = -1;

    private ProcessSampler() {
        System.gc();
        this.cpuAtStart = os.getProcessCpuTime();
        this.sampler = new Thread(this::sample, "e2e-heap-sampler");
        sampler.setDaemon(true);
        sampler.start();
    }

    static ProcessSampler start() {
        return new ProcessSampler();
    }

    private void sample() {
        while (!stopped) {
            peakHeap = Math.max(peakHeap, memory.getHeapMemoryUsage().getUsed());
            try {
                Thread.sleep(SAMPLE_MS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Stops sampling; the CPU time is the one up to this call. */
    @Override
    public void close() {
        if (cpuNanos < 0) {
            cpuNanos = os.getProcessCpuTime() - cpuAtStart;
            stopped = true;
            sampler.interrupt();
        }
    }

    long cpuNanos() {
        return cpuNanos;
    }

    long peakHeapBytes() {
        return peakHeap;
    }
}
