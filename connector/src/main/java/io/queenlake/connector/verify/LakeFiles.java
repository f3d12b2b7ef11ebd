package io.queenlake.connector.verify;

import java.io.IOException;
import java.util.List;

/** Read access to a lake by key, whatever holds it (a Flink file system, an S3 client). */
public interface LakeFiles {

    /** Every visible key under {@code keyPrefix} (hidden names, starting with '.', are left out), sorted. */
    List<String> list(String keyPrefix) throws IOException;

    /** The object's bytes, or null when there is none. */
    byte[] read(String key) throws IOException;
}
