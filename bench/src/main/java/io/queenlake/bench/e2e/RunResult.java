package io.queenlake.bench.e2e;

import java.util.Map;

/**
 * The figures of one run.
 *
 * @param seconds from submission until the whole corpus was committed (the lag of the last record
 *     pushed before the clock started, counted from the start)
 * @param firstRecordSeconds of which until the source emitted its first record (cluster, job, leases, discovery)
 * @param readAllSeconds until the source had emitted the whole corpus; what follows is the tail (see {@link ReadMilestones})
 * @param cpuSeconds process CPU time over the run (broker and S3 server included)
 * @param jitSeconds of which this JVM's JIT compiler threads took (see {@link JitQuiet}); the broker's
 *     JVM compiles too, and that stays in {@code cpuSeconds}
 * @param gcSeconds of which this JVM's garbage collector threads took (see {@link ThreadCpu}); the broker's
 *     JVM collects too, and that stays in {@code cpuSeconds}
 * @param peakLiveHeapBytes the most heap still live after a collection during the run
 * @param busyCoresAfterFirst the cores both JVMs kept busy on average from the source's first record to
 *     the commit of all: at the machine's core count the run was bound by CPU, and records/s follows CPU
 * @param busiestThread the Java thread (the benchmark's main thread aside) that took the most CPU during the run,
 *     {@code busiestThreadSeconds} of it: with cores to spare, the run could not end sooner than that
 * @param config the Flink configuration the run's job ran in
 * @param peakStateBytes the largest completed checkpoint's full state, from the job's checkpoint statistics
 * @param peakCheckpointedBytes the most one completed checkpoint wrote (below the full state only when incremental)
 * @param peakStateByTask the largest state each task (chain of operators) checkpointed, sampled once a second
 * @param s3Requests the requests the S3 server served during the run, by operation (PutObject, HeadObject, ...)
 * @param objects objects in the run's bucket at the end; {@code dataObjects} of them hold records
 * @param recordsVerified records read back from the bucket once the clock stopped
 */
record RunResult(Peer peer, RunConfig config, long records, long payloadBytes, double seconds, double firstRecordSeconds, double readAllSeconds, double cpuSeconds, double brokerCpuSeconds, double jitSeconds, double gcSeconds, long peakHeapBytes,
        long peakLiveHeapBytes, double busyCoresAfterFirst, String busiestThread, double busiestThreadSeconds, long peakStateBytes, long peakCheckpointedBytes,
        Map<String, Long> peakStateByTask, Map<String, Long> s3Requests, long checkpoints, long objects, long dataObjects, long bucketBytes, long recordsVerified) {

    long s3RequestCount() {
        return s3Requests.values().stream().mapToLong(Long::longValue).sum();
    }

    double recordsPerSecond() {
        return records / seconds;
    }

    /** Records/s from the source's first record to the commit of all: the run without the cluster's start. */
    double recordsPerSecondAfterFirst() {
        return records / (seconds - firstRecordSeconds);
    }

    double payloadMBps() {
        return payloadBytes / 1e6 / seconds;
    }

    /**
     * From the source's last record to the commit of the whole corpus: the tail a sink adds after the
     * read (0 for the ceiling, whose last record read is its last counted; both are seen at one poll).
     */
    double readToCommitSeconds() {
        return Math.max(0, seconds - readAllSeconds);
    }

    /** The share of the run's CPU (both JVMs) this JVM's garbage collector took. */
    double gcShare() {
        return gcSeconds / cpuSeconds;
    }

    double cpuSecondsPerMillion() {
        return cpuSeconds / (records / 1e6);
    }

    double jitSecondsPerMillion() {
        return jitSeconds / (records / 1e6);
    }

    /** What a long-running job pays per record: this JVM's JIT compiles the code once, not in every run. */
    double cpuSecondsPerMillionWithoutJit() {
        return (cpuSeconds - jitSeconds) / (records / 1e6);
    }
}
