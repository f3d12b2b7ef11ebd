package io.queenlake.connector.sink.committable;

import java.util.Arrays;
import java.util.Objects;
import org.apache.flink.annotation.Internal;

/**
 * One data object staged under its final key but not yet visible: the commit handle Flink's
 * {@code RecoverableWriter} gave for it, serialized by that writer's own commit-recoverable
 * serializer (so it is read back by the code that wrote it), with that serializer's version.
 *
 * @param key the object's final key, relative to the bucket root
 * @param recoverableVersion the version of the file system's commit-recoverable serializer
 * @param recoverable the serialized commit recoverable
 */
@Internal
public record StagedObject(String key, int recoverableVersion, byte[] recoverable) {

    public StagedObject {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(recoverable, "recoverable");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StagedObject s && recoverableVersion == s.recoverableVersion && key.equals(s.key)
                && Arrays.equals(recoverable, s.recoverable);
    }

    @Override
    public int hashCode() {
        return key.hashCode() * 31 + Arrays.hashCode(recoverable);
    }

    @Override
    public String toString() {
        return "StagedObject{" + key + ", recoverable v" + recoverableVersion + " " + recoverable.length + "B}";
    }
}
