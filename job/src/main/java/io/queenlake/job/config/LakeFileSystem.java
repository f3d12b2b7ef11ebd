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

    /** The plugin reads a key {@code s3.x} under each of these prefixes, all as Hadoop's {@code fs.s3a.x}. */
    private static final List<String> PLUGIN_PREFIXES = List.of("s3.", "s3a.", "fs.s3a.");

    private LakeFileSystem() {}

    /** The configuration {@link #initialize} hands to {@link FileSystem#initialize}. */
    public static Configuration configuration(ReadableConfig base, LakeSettings settings) {
        Configuration conf = base instanceof Configuration c ? new Configuration(c) : new Configuration();
        for (Map.Entry<String, String> option : settings.fileSystemOptions().entrySet()) {
            if (!providerChosenBy(conf, option.getKey())) {
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
                .filter(option -> !providerChosenBy(conf, option.getKey()))
                .filter(option -> !Objects.equals(clusterValue(conf, option.getKey()), option.getValue()))
                .map(Map.Entry::getKey)
                .toList();
    }

    /** Whether {@code key} is the credential provider and {@code conf} names one: the cluster's choice stands. */
    private static boolean providerChosenBy(Configuration conf, String key) {
        return key.equals(LakeSettings.CREDENTIALS_PROVIDER_KEY) && clusterValue(conf, key) != null;
    }

    /** The cluster's value of the {@code s3.*} key {@code key}, under whichever prefix the cluster spells it. */
    private static String clusterValue(Configuration conf, String key) {
        String name = key.substring("s3.".length());
        for (String prefix : PLUGIN_PREFIXES) {
            String value = conf.getString(prefix + name, null);
            if (value != null) {
                return value;
            }
        }
        return null;
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
