package io.queenlake.bench.e2e;

import io.queenlake.broker.kv.CommitPointers;
import io.queenlake.format.jsonl.Compression;
import io.queenlake.format.key.SidecarKeys;
import io.queenlake.format.manifest.Committed;
import io.queenlake.format.object.Format;
import io.queenlake.format.parquet.ParquetCodec;
import io.queenlake.job.LakeJob;
import io.queenlake.job.config.LakeSettings;
import io.queenlake.source.serde.QueueRecordTypeInfo;
import io.queenlake.connector.verify.FlinkLakeFiles;
import io.queenlake.connector.verify.LakeChecker;
import io.queenlake.connector.verify.LakeReport;
import io.queenlake.source.QueenSource;
import io.queenlake.source.QueueEvent;
import io.queenlake.source.QueueRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.connector.file.sink.FileSink;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.filesystem.OutputFileConfig;
import org.apache.flink.streaming.api.functions.sink.filesystem.rollingpolicies.OnCheckpointRollingPolicy;
import org.apache.flink.util.Collector;

/**
 * One timed run: a fresh bucket, one {@link Peer}'s graph on its own MiniCluster reading the corpus
 * from {@code start=earliest}, the clock running from submission until the whole corpus is
 * committed (the lake's KV pointers cover every queue's last stamp; the FileSink's finished part
 * files hold every record; the ceiling's sink counted every record), then the bucket read back.
 */
final class EndToEndRun {

    private static final long POLL_MS = 50;

    private final Stack stack;
    private final Corpus corpus;
    private final Corpus.Census census;
    private final long payloadBytes;
    private final BenchOptions options;
    private final boolean profiled;

    /** {@code profiled}: whether {@link RunProfile} may profile these runs (never the warm-up's). */
    EndToEndRun(Stack stack, Corpus corpus, Corpus.Census census, long payloadBytes, BenchOptions options,
            boolean profiled) {
        this.profiled = profiled;
        this.stack = stack;
        this.corpus = corpus;
        this.census = census;
        this.payloadBytes = payloadBytes;
        this.options = options;
    }

    /**
     * The bucket (and sink name) of a run: unique per invocation and round (warm-up rounds are below 0), so
     * every run starts on an empty one.
     */
    String bucket(Peer peer, RunConfig config, int round) {
        String suffix = round < 0 ? "-w" + -round : round > 1 ? "-" + round : "";
        return (corpus.name() + "-" + peer.id + "-" + options.invocation() + suffix + config.bucketSuffix()).toLowerCase();
    }

    RunResult run(Peer peer, RunConfig config, int round) throws Exception {
        String bucket = bucket(peer, config, round);
        Files.createDirectories(stack.bucketDir(bucket));
        LakeSettings settings = settings(peer, bucket);
        StreamExecutionEnvironment env = BenchCluster.environment(peer.label + " " + bucket, options.parallelism(), options.checkpointInterval(),
                options.dir().resolve("checkpoints").resolve(bucket), config);
        build(env, peer, settings);
        BucketFolder folder = new BucketFolder(stack.bucketDir(bucket));
        ManifestWatch manifests = manifestWatch(settings);
        PartWatch parts = new PartWatch(folder, settings.sink(), peer.partSuffix());
        BenchCluster.PeakCheckpoint peak = new BenchCluster.PeakCheckpoint(0, 0);
        Map<String, Long> stateByTask = new LinkedHashMap<>();
        long checkpoints;
        double seconds;
        double firstRecordSeconds;
        double readAllSeconds;
        long cpuNanos;
        long brokerCpuNanos;
        long compilerCpuNanos;
        long collectorCpuNanos;
        long peakHeap;
        long peakLiveHeap;
        double busyCores;
        ProcessSampler.BusiestThread busiest;
        Map<String, Long> requestsBefore = stack.s3().requests();
        Map<String, Long> requests;
        try (ProcessSampler sampler = ProcessSampler.start(stack.broker()::cpuNanos); RunProfile profile = RunProfile.start(bucket, profiled)) {
            long t0 = System.nanoTime();
            ReadMilestones reads = new ReadMilestones(t0, census.records());
            try (BenchCluster cluster = BenchCluster.submit(env)) {
                long deadline = t0 + options.runTimeout().toNanos();
                long lastStatePoll = 0;
                while (!committed(peer, settings, parts, manifests)) {
                    reads.poll();
                    cluster.assertRunning();
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException(peer.label + " did not commit the corpus " + corpus.name()
                                + " within " + options.runTimeout() + ": " + progress(peer, settings, parts)
                                + (manifests.problem().isEmpty() ? "" : " (" + manifests.problem() + ")")
                                + "; raise run-timeout-s or scale the corpus down.");
                    }
                    if (System.nanoTime() - lastStatePoll > 1_000_000_000L) {
                        peak = peak.max(cluster.peakCheckpoint());
                        cluster.stateByTask().forEach((task, bytes) -> stateByTask.merge(task, bytes, Math::max));
                        lastStatePoll = System.nanoTime();
                    }
                    Thread.sleep(POLL_MS);
                }
                seconds = (System.nanoTime() - t0) / 1e9;
                reads.poll();
                firstRecordSeconds = reads.firstRecordSeconds();
                readAllSeconds = reads.readAllSeconds();
                sampler.close();
                busyCores = sampler.busyCoresFrom(t0 + (long) (firstRecordSeconds * 1e9));
                profile.close();
                requests = stack.s3().requestsSince(requestsBefore);
                peak = peak.max(cluster.peakCheckpoint());
                cluster.stateByTask().forEach((task, bytes) -> stateByTask.merge(task, bytes, Math::max));
                checkpoints = cluster.completedCheckpoints();
            }
            cpuNanos = sampler.cpuNanos();
            brokerCpuNanos = sampler.brokerCpuNanos();
            compilerCpuNanos = sampler.compilerCpuNanos();
            collectorCpuNanos = sampler.collectorCpuNanos();
            peakHeap = sampler.peakHeapBytes();
            peakLiveHeap = sampler.peakLiveHeapBytes();
            busiest = sampler.busiestThread();
        }
        List<Path> objects = folder.objects();
        long dataObjects = objects.stream().filter(p -> isData(p.getFileName().toString())).count();
        long verified = verify(peer, settings, folder);
        return new RunResult(peer, config, census.records(), payloadBytes, seconds, firstRecordSeconds, readAllSeconds, cpuNanos / 1e9, brokerCpuNanos / 1e9, compilerCpuNanos / 1e9, collectorCpuNanos / 1e9, peakHeap, peakLiveHeap, busyCores, busiest.name(), busiest.cpuNanos() / 1e9, peak.stateBytes(), peak.checkpointedBytes(),
                Map.copyOf(stateByTask), requests, checkpoints, objects.size(), dataObjects, folder.bytes(), verified);
    }

    private static boolean isData(String name) {
        return Format.isObjectKey(name);
    }

    private LakeSettings settings(Peer peer, String bucket) {
        Format format = peer == Peer.LAKE_PARQUET ? new Format.Parquet(ParquetCodec.ZSTD)
                : new Format.Jsonl(Compression.ZSTD);
        return stack.settings(corpus.queues(), bucket, options.windowMs(), format);
    }

    private void build(StreamExecutionEnvironment env, Peer peer, LakeSettings settings) {
        if (peer.lake()) {
            LakeJob.build(env, settings);
            return;
        }
        QueenSource source = settings.source();
        // The peers read the same source and keep its records only (a chained flatMap, as cheap as a filter).
        DataStream<QueueRecord> records = env
                .fromSource(source, source.watermarkStrategy(), "Queen source")
                .uid("queen-source")
                .flatMap(new OnlyRecords(), QueueRecordTypeInfo.INSTANCE);
        if (peer == Peer.CEILING) {
            records.sinkTo(new CountingSink(settings.sink())).name("Discarding sink");
            return;
        }
        org.apache.flink.core.fs.Path base = new org.apache.flink.core.fs.Path(settings.lakeRoot() + "/filesink");
        OutputFileConfig names = OutputFileConfig.builder().withPartPrefix("part").withPartSuffix(peer.partSuffix()).build();
        BulkWriter.Factory<QueueRecord> format = new CountingPartWriters(settings.sink(),
                peer == Peer.FILESINK_PARQUET ? new RowDataParquetWriters() : new ZstdJsonLineWriters());
        FileSink<QueueRecord> sink = FileSink.forBulkFormat(base, format)
                .withBucketAssigner(new QueueBucketAssigner())
                .withRollingPolicy(OnCheckpointRollingPolicy.build())
                .withOutputFileConfig(names)
                .build();
        records.sinkTo(sink).name("FileSink").uid("file-sink");
    }

    /** The source's records, without its queue starts and frontiers. */
    private static final class OnlyRecords implements FlatMapFunction<QueueEvent, QueueRecord> {
        private static final long serialVersionUID = 1L;

        @Override
        public void flatMap(QueueEvent event, Collector<QueueRecord> out) {
            if (event instanceof QueueRecord record) {
                out.collect(record);
            }
        }
    }

    private ManifestWatch manifestWatch(LakeSettings settings) {
        Map<String, SidecarKeys> sidecars = new LinkedHashMap<>();
        for (String queue : corpus.queues()) {
            sidecars.put(queue, new SidecarKeys(settings.prefix(), settings.tenant(), queue));
        }
        return new ManifestWatch(stack.bucketDir(settings.bucket()), sidecars);
    }

    /**
     * Whether the corpus is committed, looked at the same cheap way for every peer while the clock
     * runs: a counter for the ceiling, the listing against the writers' counts for FileSink, the
     * manifests' listing then the pointers for the lake. Nothing is opened or decompressed here.
     */
    private boolean committed(Peer peer, LakeSettings settings, PartWatch parts, ManifestWatch manifests)
            throws Exception {
        if (peer == Peer.CEILING) {
            return CountingSink.count(settings.sink()) >= census.records();
        }
        if (peer.fileSink()) {
            return parts.committedRecords() >= census.records();
        }
        if (!manifests.reachesPast(census.lastStamps())) {
            return false;
        }
        CommitPointers pointers = new CommitPointers(stack.client(), settings.sink());
        for (String queue : corpus.queues()) {
            Committed c = pointers.read(queue).pointer().orElse(null);
            if (c == null || c.tEnd() <= census.lastStamps().get(queue)) {
                return false;
            }
        }
        return true;
    }

    private String progress(Peer peer, LakeSettings settings, PartWatch parts) throws Exception {
        if (peer == Peer.CEILING) {
            return CountingSink.count(settings.sink()) + " of " + census.records() + " records read";
        }
        if (peer.fileSink()) {
            return parts.committedRecords() + " of " + census.records() + " records in committed parts";
        }
        CommitPointers pointers = new CommitPointers(stack.client(), settings.sink());
        List<String> seen = new ArrayList<>();
        for (String queue : corpus.queues()) {
            seen.add(queue + " pointer " + pointers.read(queue).pointer().orElse(null) + " (last stamp "
                    + census.lastStamps().get(queue) + ")");
        }
        return String.join(", ", seen);
    }

    /**
     * Reads the bucket back once the clock stopped: the lake through its checker over the bucket's
     * folder (every window consistent, every record once), the FileSink parts by {@link FileSinkAudit}.
     */
    private long verify(Peer peer, LakeSettings settings, BucketFolder folder) throws Exception {
        if (peer == Peer.CEILING) {
            return CountingSink.count(settings.sink());
        }
        if (peer.fileSink()) {
            return FileSinkAudit.check(folder, peer.partFormat(), peer.label);
        }
        String root = stack.bucketDir(settings.bucket()).toUri().toString().replaceAll("/+$", "");
        LakeChecker checker = new LakeChecker(new FlinkLakeFiles(root), settings.prefix());
        CommitPointers pointers = new CommitPointers(stack.client(), settings.sink());
        long records = 0;
        for (String queue : corpus.queues()) {
            LakeReport report = checker.check(settings.tenant(), queue, pointers.read(queue).pointer().orElse(null));
            if (!report.problems().isEmpty()) {
                throw new IllegalStateException("the lake of " + peer.label + " failed its check: " + report.summary());
            }
            records += report.recordsRead();
        }
        return records;
    }
}
