package io.queenlake.bench.e2e;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * What one run costs this JVM: process CPU time between start and stop, the peak of used heap and
 * the peak of heap still live after a collection (the sum of the heap pools' collection usage: what
 * the run really holds, where used heap also counts garbage not collected yet), sampled every
 * {@value #SAMPLE_MS} ms by a daemon thread. The CPU time includes the dev broker's JVM's and the
 * S3 server's (this JVM): serving the fetches and storing the objects, the same work for every run.
 * The heap figures are this JVM's: the pipelines' and the S3 server's. Each sample also notes
 * both JVMs' CPU time so far, for how many cores a stretch of the run kept busy
 * ({@link #busyCoresFrom}).
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
    /** Per sample, when it was taken and both JVMs' CPU time until then; guarded by {@code this}. */
    private long[] sampleNanos = new long[256];
    private long[] sampleCpuNanos = new long[256];
    private int samples;
    private long closedNanos;
    private long closedCpuNanos;
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    /** Each Java thread's CPU time when the run started. */
    private final Map<Long, Long> threadCpuAtStart = new HashMap<>();
    private BusiestThread busiest = new BusiestThread("none", 0);

    /**
     * The Java thread of this JVM (the benchmark's own main thread aside) that took the most CPU during
     * the run: a bound on how soon the run could end however many cores there were, since one
     * thread's work runs one instruction after the other.
     */
    record BusiestThread(String name, long cpuNanos) {}

    private ProcessSampler(LongSupplier brokerCpu) {
        System.gc(); // the last run's garbage and its collection usage are not this run's
        this.brokerCpu = brokerCpu;
        this.brokerCpuAtStart = brokerCpu.getAsLong();
        this.cpuAtStart = os.getProcessCpuTime();
        this.compilerCpuAtStart = JitQuiet.compilerCpuNanos();
        this.collectorCpuAtStart = ThreadCpu.nanos(ThreadCpu::collector);
        for (long id : threads.getAllThreadIds()) {
            threadCpuAtStart.put(id, Math.max(0, threads.getThreadCpuTime(id)));
        }
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
            note(System.nanoTime(), os.getProcessCpuTime() + brokerCpu.getAsLong());
            try {
                Thread.sleep(SAMPLE_MS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private synchronized void note(long nanos, long cpu) {
        if (samples == sampleNanos.length) {
            sampleNanos = Arrays.copyOf(sampleNanos, samples * 2);
            sampleCpuNanos = Arrays.copyOf(sampleCpuNanos, samples * 2);
        }
        sampleNanos[samples] = nanos;
        sampleCpuNanos[samples] = cpu;
        samples++;
    }

    /**
     * How many cores both JVMs kept busy on average from {@code nanos} ({@link System#nanoTime()})
     * until the run stopped, from the first sample at or after it; NaN when none was taken.
     */
    synchronized double busyCoresFrom(long nanos) {
        for (int i = 0; i < samples; i++) {
            if (sampleNanos[i] >= nanos && closedNanos > sampleNanos[i]) {
                return (double) (closedCpuNanos - sampleCpuNanos[i]) / (closedNanos - sampleNanos[i]);
            }
        }
        return Double.NaN;
    }

    /** Stops sampling; the CPU time is the one up to this call. */
    @Override
    public void close() {
        if (cpuNanos < 0) {
            long brokerCpuNow = brokerCpu.getAsLong();
            long processCpuNow = os.getProcessCpuTime();
            synchronized (this) {
                closedNanos = System.nanoTime();
                closedCpuNanos = processCpuNow + brokerCpuNow;
            }
            busiest = busiestSinceStart();
            brokerCpuNanos = brokerCpuNow - brokerCpuAtStart;
            cpuNanos = processCpuNow - cpuAtStart + brokerCpuNanos;
            compilerCpuNanos = JitQuiet.compilerCpuNanos() - compilerCpuAtStart;
            collectorCpuNanos = ThreadCpu.nanos(ThreadCpu::collector) - collectorCpuAtStart;
            stopped = true;
            sampler.interrupt();
        }
    }

    private BusiestThread busiestSinceStart() {
        long main = Thread.currentThread().getId();
        BusiestThread most = new BusiestThread("none", 0);
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info == null || info.getThreadId() == main) {
                continue;
            }
            long cpu = threads.getThreadCpuTime(info.getThreadId());
            long took = cpu - threadCpuAtStart.getOrDefault(info.getThreadId(), 0L);
            if (cpu >= 0 && took > most.cpuNanos()) {
                most = new BusiestThread(info.getThreadName(), took);
            }
        }
        return most;
    }

    long cpuNanos() {
        return cpuNanos;
    }

    BusiestThread busiestThread() {
        return busiest;
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
