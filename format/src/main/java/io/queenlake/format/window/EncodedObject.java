package io.queenlake.format.window;

import io.queenlake.format.manifest.ManifestObject;
import java.util.Objects;

/** One encoded data object: its manifest entry (key, size, count, sha256) and its body. */
public record EncodedObject(ManifestObject entry, byte[] body) {

    public EncodedObject {
        Objects.requireNonNull(entry, "entry");
        Objects.requireNonNull(body, "body");
    }

    public String key() {
        return entry.key();
    }

    public String sha256() {
        return entry.sha256();
    }
}
