package io.queenlake.devstack.s3;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.plugin.PluginUtils;

/**
 * Points Flink's {@code s3://} file system at an {@link EmbeddedS3}. flink-s3-fs-hadoop is loaded only
 * as a plugin from {@code FLINK_PLUGINS_DIR} (the pom copies it to {@code target/flink-plugins}), never
 * from the class path. {@code FileSystem.initialize} is JVM-wide, so each test class calls this once
 * for its own server.
 */
final class FlinkS3Plugin {

    private FlinkS3Plugin() {}

    static Configuration initialize(EmbeddedS3 s3) {
        Configuration conf = Configuration.fromMap(FlinkS3Settings.of(s3));
        if (System.getenv("FLINK_PLUGINS_DIR") == null) {
            throw new IllegalStateException("FLINK_PLUGINS_DIR is not set: run the tests through Maven (surefire"
                    + " sets it to target/flink-plugins) or set it to a folder holding s3-fs-hadoop/.");
        }
        FileSystem.initialize(conf, PluginUtils.createPluginManagerFromRootFolder(conf));
        return conf;
    }
}
