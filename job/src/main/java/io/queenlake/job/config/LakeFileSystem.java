package io.queenlake.job.config;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.plugin.PluginUtils;

/**
 * Configures Flink's file systems in this process for the lake: the configuration the process
 * already has (the cluster's) plus {@link LakeSettings#fileSystemOptions()}, with the S3 file system
 * loaded from the plugins folder ({@code FLINK_PLUGINS_DIR}, or {@code plugins/} of the
 * distribution) as a Flink cluster does. A credential provider named by the cluster's own
 * configuration is kept.
 *
 * <p>It configures this process only. The task managers of a cluster read their {@code s3.*} options
 * from the cluster's configuration when they start: set the same options there (flink-conf/).
 */
public final class LakeFileSystem {

    private static final String HADOOP_MARKER_RETENTION_KEY = "fs.s3a.directory.marker.retention";

    private LakeFileSystem() {}

    /** The configuration {@link #initialize} hands to {@link FileSystem#initialize}. */
    public static Configuration configuration(ReadableConfig base, LakeSettings settings) {
        Configuration conf = base instanceof Configuration c ? new Configuration(c) : new Configuration();
        for (Map.Entry<String, String> option : settings.fileSystemOptions().entrySet()) {
            boolean providerChosenByCluster = option.getKey().equals(LakeSettings.CREDENTIALS_PROVIDER_KEY)
                    && (conf.containsKey(LakeSettings.CREDENTIALS_PROVIDER_KEY)
                            || conf.containsKey("fs.s3a.aws.credentials.provider"));
            if (!providerChosenByCluster) {
                conf.setString(option.getKey(), option.getValue());
            }
        }
        return conf;
    }

    /**
     * The {@code s3.*} keys these settings need that {@code cluster} lacks or sets otherwise: the task
     * managers' S3 file system reads them from the cluster's configuration, not from the job. A
     * provider chosen by the cluster counts as present. Only keys are returned, never values.
     */
    public static List<String> missingFromCluster(ReadableConfig cluster, LakeSettings settings) {
        Configuration conf = cluster instanceof Configuration c ? c : new Configuration();
        return settings.fileSystemOptions().entrySet().stream()
                .filter(option -> !(option.getKey().equals(LakeSettings.CREDENTIALS_PROVIDER_KEY)
                        && (conf.containsKey(option.getKey()) || conf.containsKey("fs.s3a.aws.credentials.provider"))))
                .filter(option -> !Objects.equals(clusterValue(conf, option.getKey()), option.getValue()))
                .map(Map.Entry::getKey)
                .toList();
    }

    /** The cluster's value of {@code key}, also under Hadoop's own name where a cluster may use that instead. */
    private static String clusterValue(Configuration conf, String key) {
        String value = conf.getString(key, null);
        if (value == null && key.equals(LakeSettings.MARKER_RETENTION_KEY)) {
            return conf.getString(HADOOP_MARKER_RETENTION_KEY, null);
        }
        return value;
    }

    /** Initializes this process's file systems for {@code settings}; nothing to do for a local folder. */
    public static void initialize(ReadableConfig base, LakeSettings settings) {
        if (settings.localFolder()) {
            return;
        }
        Configuration conf = configuration(base, settings);
        FileSystem.initialize(conf, PluginUtils.createPluginManagerFromRootFolder(conf));
    }
}
