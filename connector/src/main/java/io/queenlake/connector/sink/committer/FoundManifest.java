package io.queenlake.connector.sink.committer;

import io.queenlake.format.manifest.Manifest;
import java.util.Optional;

/**
 * What a manifest key held when the committer read it: nothing, a manifest, or bytes that do not
 * parse (a torn write of a crashed attempt on a file system without atomic writes, a newer
 * release's, or one written by hand): never taken for absent, so never written over unchecked.
 *
 * @param unreadable why the bytes did not parse, when they did not
 */
record FoundManifest(Optional<Manifest> manifest, Optional<String> unreadable) {

    static FoundManifest absent() {
        return new FoundManifest(Optional.empty(), Optional.empty());
    }

    static FoundManifest of(Manifest manifest) {
        return new FoundManifest(Optional.of(manifest), Optional.empty());
    }

    static FoundManifest unreadable(String why) {
        return new FoundManifest(Optional.empty(), Optional.of(why));
    }

    boolean isAbsent() {
        return manifest.isEmpty() && unreadable.isEmpty();
    }
}
