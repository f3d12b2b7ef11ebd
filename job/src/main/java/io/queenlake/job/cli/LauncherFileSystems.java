package io.queenlake.job.cli;

import io.queenlake.job.config.LakeFileSystem;
import io.queenlake.job.config.LakeSettings;
import io.queenlake.connector.sink.S3CallBounds;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.plugin.DefaultPluginManager;
import org.apache.flink.core.plugin.DirectoryBasedPluginFinder;

/**
 * Flink's file systems for a launcher command, as a Flink cluster sets them up: the lake's
 * {@code s3.*} options ({@link LakeFileSystem#configuration}) with the clusters' bounds on S3A's
 * retries and timeouts ({@link S3CallBounds}), and the S3 file system loaded as a
 * plugin, never from the class path (it bundles an unrelocated Hadoop). The plugins folder is
 * {@code FLINK_PLUGINS_DIR} when set, else the one the build fills next to the launcher's classes
 * ({@code job/target/flink-plugins}), so {@code ./queen-lake} works without a Flink distribution.
 */
final class LauncherFileSystems {

    static final String PLUGINS_ENV = "FLINK_PLUGINS_DIR";

    private LauncherFileSystems() {}

    /** Initializes this process's file systems for {@code settings} on top of {@code base}; returns the configuration used. */
    static Configuration initialize(Configuration base, LakeSettings settings) {
        // The S3 plugin's AWS SDK v1 prints a multi-line end-of-support banner on its first call; the
        // launcher's users cannot act on it (a cluster's S3 plugin is the operator's choice).
        System.setProperty("aws.java.v1.disableDeprecationAnnouncement", "true");
        Configuration conf = LakeFileSystem.configuration(base, settings);
        boundS3Calls(conf);
        Path plugins = pluginsFolder();
        if (!settings.localFolder() && !Files.isDirectory(plugins.resolve("s3-fs-hadoop"))) {
            throw new IllegalStateException("the S3 file system plugin is not in " + plugins.resolve("s3-fs-hadoop")
                    + ": build it with 'mvn -pl job -am install -DskipTests' (./queen-lake does so when job/target is"
                    + " missing) or set " + PLUGINS_ENV + " to a folder holding s3-fs-hadoop/.");
        }
        try {
            FileSystem.initialize(conf, new DefaultPluginManager(
                    new DirectoryBasedPluginFinder(plugins).findPlugins(), CoreOptions.getPluginParentFirstLoaderPatterns(conf)));
        } catch (IOException e) {
            throw new UncheckedIOException("the plugins folder " + plugins + " cannot be read: " + e.getMessage()
                    + "; set " + PLUGINS_ENV + " to a readable folder.", e);
        }
        return conf;
    }

    /**
     * The S3A retry and timeout bounds of the clusters' configurations ({@link S3CallBounds}), for
     * each key {@code conf} does not set under any of the plugin's prefixes: without them a call
     * against a stopped bucket retries inside S3A for many minutes before the job hears of it.
     */
    static Configuration boundS3Calls(Configuration conf) {
        S3CallBounds.SETTINGS.forEach((key, value) -> {
            String name = key.substring("s3.".length());
            if (!conf.containsKey(key) && !conf.containsKey("s3a." + name) && !conf.containsKey("fs.s3a." + name)) {
                conf.setString(key, value);
            }
        });
        return conf;
    }

    static Path pluginsFolder() {
        String fromEnv = System.getenv(PLUGINS_ENV);
        if (fromEnv != null && !fromEnv.isBlank()) {
            return Path.of(fromEnv);
        }
        try {
            Path classes = Path.of(LauncherFileSystems.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return classes.toAbsolutePath().getParent().resolve("flink-plugins");
        } catch (URISyntaxException | RuntimeException e) {
            return Path.of("plugins").toAbsolutePath();
        }
    }
}
