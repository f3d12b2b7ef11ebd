package io.queenlake.job.pipeline;

import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.manifest.ManifestJson;
import io.queenlake.connector.testutils.LakeFiles;
import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every visible key of a lake with the sha256 of its bytes, comparable between two lakes written
 * under different sink names: data and checkpoint objects are hashed as they are; a manifest is
 * hashed with its two fields that are not a function of the window set to fixed values, the
 * wall-clock {@code committedAt} and the {@code sink} name (which a control run must change, since
 * the KV pointer keys carry it). {@code LakeFingerprint} keeps the sink name, so it compares only
 * lakes of one sink name.
 */
final class LakeImage {

    private static final String CONTROL_SINK = "-";

    private LakeImage() {}

    static Map<String, String> of(LakeFiles files, String keyPrefix) throws IOException {
        Map<String, String> image = new TreeMap<>();
        for (String key : files.list(keyPrefix)) {
            byte[] body = files.read(key);
            if (isManifest(key)) {
                Manifest m = ManifestJson.read(body);
                Manifest normalized = new Manifest(CONTROL_SINK, m.tenant(), m.queue(), m.k(), m.tStart(), m.tEnd(),
                        m.format(), m.compression(), m.layout(), m.objects(), m.records(), m.bytes(), m.partitions(),
                        m.minTs(), m.maxTs(), m.lost(), m.writer(), 0L);
                body = ManifestJson.write(normalized);
            }
            image.put(key, sha256(body));
        }
        return image;
    }

    /** Only the data objects (not under {@code _queen/}): the records' home. */
    static Map<String, String> dataObjects(Map<String, String> image) {
        Map<String, String> data = new TreeMap<>();
        image.forEach((key, sha) -> {
            if (!key.contains("/_queen/")) {
                data.put(key, sha);
            }
        });
        return data;
    }

    static boolean isManifest(String key) {
        return key.contains("/_queen/") && key.contains("/windows/") && key.endsWith(".json");
    }

    private static String sha256(byte[] body) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
