package io.queenlake.connector.testutils;

import io.queenlake.format.manifest.ManifestJson;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every visible key under a prefix with the sha256 of its bytes: two runs that wrote the same lake
 * have equal fingerprints. A manifest is hashed with its {@code committedAt} (the bucket's only
 * wall-clock value) set to zero, so a rerun that stamps a new time still compares equal.
 */
public final class LakeFingerprint {

    private LakeFingerprint() {}

    public static Map<String, String> of(LakeFiles files, String keyPrefix) throws IOException {
        Map<String, String> fingerprint = new TreeMap<>();
        for (String key : files.list(keyPrefix)) {
            byte[] body = files.read(key);
            if (key.contains("/_queen/") && key.contains("/windows/") && key.endsWith(".json")) {
                body = ManifestJson.write(ManifestJson.read(body).withCommittedAt(0));
            }
            fingerprint.put(key, LakeChecker.sha256(body));
        }
        return fingerprint;
    }
}
