package io.queenlake.bench.e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.configuration.StateBackendOptions;

/**
 * The Flink configuration a run's job gets on top of the benchmark's own (checkpoint interval,
 * exactly once, no restarts, checkpoints in a local folder): {@code default}, nothing more, the
 * MiniCluster's defaults (the heap state backend, full checkpoints); {@code shipped}, the state
 * backend and checkpoint settings of the production {@code config.yaml}, read when the invocation
 * starts: every {@code state.*} and {@code execution.checkpointing.*} key but those in
 * {@link #KEPT}, whose production values would change what the rounds compare, and the two
 * directories, which go to a local folder as the default's do.
 *
 * @param taken the keys taken from the file, with their values
 * @param kept the file's keys the benchmark keeps its own value of, with the file's value
 */
record RunConfig(String id, Path file, Map<String, String> taken, Map<String, String> kept) {

    static final RunConfig DEFAULT = new RunConfig("default", null, Map.of(), Map.of());

    /**
     * The file's keys the benchmark does not take: the interval (every run checkpoints at
     * {@code checkpoint-ms}, so that rounds and configurations compare) and the minimum pause,
     * which at the shipped 10 s would stretch a 1 s interval to 10 s and more; the directories are
     * redirected to a local folder under {@code dir=} (no run writes to the file's bucket).
     */
    static final Set<String> KEPT = Set.of(
            CheckpointingOptions.CHECKPOINTING_INTERVAL.key(),
            CheckpointingOptions.MIN_PAUSE_BETWEEN_CHECKPOINTS.key(),
            CheckpointingOptions.CHECKPOINTS_DIRECTORY.key(),
            CheckpointingOptions.SAVEPOINT_DIRECTORY.key());

    /** The shipped configuration: the keys of {@code confDir/config.yaml} that it takes. */
    static RunConfig shipped(Path confDir) {
        Path file = confDir.resolve(GlobalConfiguration.FLINK_CONF_FILENAME);
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("config=shipped reads " + file + ", which is not a file: run from the"
                    + " repository root or give flink-conf=<folder holding config.yaml>");
        }
        Map<String, String> all = GlobalConfiguration.loadConfiguration(confDir.toString()).toMap();
        Map<String, String> taken = new TreeMap<>();
        Map<String, String> kept = new TreeMap<>();
        all.forEach((key, value) -> {
            if (!key.startsWith("state.") && !key.startsWith("execution.checkpointing.")) {
                return;
            }
            (KEPT.contains(key) ? kept : taken).put(key, value);
        });
        return new RunConfig("shipped", file, Collections.unmodifiableMap(taken), Collections.unmodifiableMap(kept));
    }

    /** {@code config=default|shipped|both} as the list of configurations each peer runs in. */
    static List<RunConfig> parse(String value, Path confDir) {
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "default" -> List.of(DEFAULT);
            case "shipped" -> List.of(shipped(confDir));
            case "both" -> List.of(DEFAULT, shipped(confDir));
            default -> throw new IllegalArgumentException("config=" + value + ": give default, shipped or both");
        };
    }

    /** Adds this configuration's keys to a job's configuration (after the benchmark's own). */
    void applyTo(Configuration conf, Path localDir) {
        taken.forEach(conf::setString);
        if (isRocksDb()) {
            // RocksDB's working files under dir= rather than the system's temporary folder (a tmpfs,
            // perhaps): production keeps them on the TaskManager's disk.
            conf.setString("state.backend.rocksdb.localdir", localDir.resolve("rocksdb").toString());
        }
    }

    boolean isRocksDb() {
        return "rocksdb".equalsIgnoreCase(taken.getOrDefault(StateBackendOptions.STATE_BACKEND.key(), ""));
    }

    /** The state backend and checkpoint kind this configuration runs, e.g. {@code shipped: rocksdb, incremental}. */
    String label() {
        Configuration conf = Configuration.fromMap(taken);
        String backend = conf.get(StateBackendOptions.STATE_BACKEND);
        boolean incremental = conf.get(CheckpointingOptions.INCREMENTAL_CHECKPOINTS);
        return id + " (" + backend + (incremental ? ", incremental" : ", full") + ")";
    }

    /** The suffix of a run's bucket: none for the default, so its names stay as they were. */
    String bucketSuffix() {
        return this == DEFAULT || id.equals("default") ? "" : "-" + id;
    }

    /** One paragraph: where the configuration comes from and what it took, kept and redirected. */
    String describe() {
        if (file == null) {
            return "configuration " + label() + ": the MiniCluster's defaults, checkpoints to a local folder";
        }
        Map<String, String> keptWhy = new LinkedHashMap<>();
        kept.forEach((k, v) -> keptWhy.put(k, v + (k.equals(CheckpointingOptions.CHECKPOINTS_DIRECTORY.key())
                ? " -> a local folder under dir=" : k.equals(CheckpointingOptions.SAVEPOINT_DIRECTORY.key())
                ? " (no run takes a savepoint)" : " -> the bench's")));
        return String.format(Locale.ROOT, "configuration %s from %s: took %s; not taken %s%s", label(), file, taken,
                keptWhy, isRocksDb() ? "; RocksDB's local dir under dir=, managed memory the MiniCluster's default" : "");
    }
}
