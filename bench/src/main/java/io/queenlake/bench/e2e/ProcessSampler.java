package io.queenlake.bench.e2e;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * What one run costs this JVM: process CPU time between start and stop, the peak of used heap and
 * the peak of heap still live after a collection (the sum of the heap pools' collection usage: what
 * the run really holds, where used heap also counts garbage not collected yet), sampled every
 * {@value #SAMPLE_MS} ms by a daemon thread. The CPU time includes the dev broker's JVM's and the
 * S3 server's (this JVM): serving the fetches and storing the objects, the same work for every run.
 * The heap figures are this JVM's: the pipelines' and the S3 server's.
 */
final class ProcessSampler implements AutoCloseable {

    private static final long SAMPLE_MS = 50;

    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final long cpuAtStart;
    private final long compilerCpuAtStart;
    private final long collectorCpuAtStart;
    private final LongSupplier brokerCpu;
    private final long brokerCpuAtStart;
    private final Thread sampler;
    private final List<MemoryPoolMXBean> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(p -> p.getType() == MemoryType.HEAP && p.getCollectionUsage() != null)
            .toList();
    private volatile long peakHeap;
    private volatile long peakLiveHeap;
    private volatile boolean stopped;
    private long cpuNanos = -1;
    private long compilerCpuNanos = -1;
    private long collectorCpuNanos = -1;
    private long brokerCpuNanos = -1;

    private ProcessSampler(LongSupplier brokerCpu) {
        System.gc(); // the last run's garbage and its collection usage are not this run's
        this.brokerCpu = brokerCpu;
        this.brokerCpuAtStart = brokerCpu.getAsLong();
        this.cpuAtStart = os.getProcessCpuTime();
        this.compilerCpuAtStart = JitQuiet.compilerCpuNanos();
        this.collectorCpuAtStart = ThreadCpu.nanos(ThreadCpu::collector);
        this.sampler = new Thread(this::sample, "e2e-heap-sampler");
        sampler.setDaemon(true);
        sampler.start();
    }

    /** {@code brokerCpu}: the broker's JVM's CPU time so far. */
    static ProcessSampler start(LongSupplier brokerCpu) {
        return new ProcessSampler(brokerCpu);
    }

    private void sample() {
        while (!stopped) {
            peakHeap = Math.max(peakHeap, memory.getHeapMemoryUsage().getUsed());
            long live = 0;
            for (MemoryPoolMXBean pool : heapPools) {
                live += pool.getCollectionUsage().getUsed();
            }
            peakLiveHeap = Math.max(peakLiveHeap, live);
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
            brokerCpuNanos = brokerCpu.getAsLong() - brokerCpuAtStart;
            cpuNanos = os.getProcessCpuTime() - cpuAtStart + brokerCpuNanos;
            compilerCpuNanos = JitQuiet.compilerCpuNanos() - compilerCpuAtStart;
            collectorCpuNanos = ThreadCpu.nanos(ThreadCpu::collector) - collectorCpuAtStart;
            stopped = true;
            sampler.interrupt();
        }
    }

    long cpuNanos() {
        return cpuNanos;
    }

    /**
     * CPU time the broker's JVM took during the run (part of {@link #cpuNanos()}): serving the
     * source's fetches, the same work for every peer, so a sink's own cost is the rest.
     */
    long brokerCpuNanos() {
        return brokerCpuNanos;
    }

    /**
     * CPU time this JVM's JIT compiler threads took during the run (part of {@link #cpuNanos()}; the
     * broker's own JVM compiles too, and that stays in the CPU time).
     */
    long compilerCpuNanos() {
        return compilerCpuNanos;
    }

    /**
     * CPU time this JVM's garbage collector threads took during the run (part of {@link #cpuNanos()}:
     * the pipelines' and the S3 server's garbage; the broker's JVM collects its own, not counted here).
     */
    long collectorCpuNanos() {
        return collectorCpuNanos;
    }

    long peakHeapBytes() {
        return peakHeap;
    }

    long peakLiveHeapBytes() {
        return peakLiveHeap;
    }
}
