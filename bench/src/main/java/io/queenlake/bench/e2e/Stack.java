package io.queenlake.bench.e2e;

import io.queenlake.broker.client.QueenClient;
import io.queenlake.devstack.s3.EmbeddedS3;
import io.queenlake.format.object.Format;
import io.queenlake.job.config.LakeSettings;
import io.queenlake.job.config.SettingsLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;

/** The dev broker (with its client) and the embedded S3 server every run of one invocation shares. */
record Stack(BrokerProcess broker, QueenClient client, EmbeddedS3 s3) {

    String brokerUrl() {
        return broker.url().toString();
    }

    /** The job arguments that point a run at this broker and at {@code bucket} of this S3 server. */
    List<String> lakeArgs(String bucket) {
        return new ArrayList<>(List.of(
                "--endpoint", s3.endpoint().toString(),
                "--region", EmbeddedS3.REGION,
                "--bucket", bucket,
                "--access-key", s3.accessKey(),
                "--secret-key", s3.secretKey(),
                "--path-style", "true",
                "--queen-url", brokerUrl()));
    }

    /**
     * The job's settings for a run into {@code bucket}: defaults except {@code start=earliest}, the
     * window size and the format with its codec; the bucket's name is the sink's name too, so runs never share
     * pointers.
     */
    LakeSettings settings(List<String> queues, String bucket, long windowMs, Format format) {
        List<String> args = lakeArgs(bucket);
        args.addAll(List.of(
                "--queues", String.join(",", queues),
                "--start", "earliest",
                "--max-window-ms", Long.toString(windowMs),
                "--sink", bucket,
                "--instance", "e2e-" + bucket,
                "--format", format.name(),
                format instanceof Format.Parquet ? "--parquet-codec" : "--compression", format.codecName()));
        return SettingsLoader.load(Map.of(), args.toArray(String[]::new), new Configuration());
    }

    Path bucketDir(String bucket) {
        return s3.bucketDir(bucket);
    }
}
