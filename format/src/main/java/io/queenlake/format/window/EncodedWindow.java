package io.queenlake.format.window;

import io.queenlake.format.manifest.Manifest;
import java.util.List;

/**
 * A window ready to stage: its objects in key order of the layout (one when merged, one per
 * partition in lake order otherwise) and its manifest without {@code committedAt}.
 */
public record EncodedWindow(Manifest manifest, List<EncodedObject> objects) {

    public EncodedWindow {
        objects = List.copyOf(objects);
    }
}
