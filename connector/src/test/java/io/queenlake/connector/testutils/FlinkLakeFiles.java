package io.queenlake.connector.testutils;

import java.io.IOException;
import java.util.List;

/** {@link io.queenlake.connector.verify.FlinkLakeFiles} under the tests' {@link LakeFiles} name. */
public final class FlinkLakeFiles implements LakeFiles {

    private final io.queenlake.connector.verify.FlinkLakeFiles files;

    public FlinkLakeFiles(String root) throws IOException {
        this.files = new io.queenlake.connector.verify.FlinkLakeFiles(root);
    }

    @Override
    public List<String> list(String keyPrefix) throws IOException {
        return files.list(keyPrefix);
    }

    @Override
    public byte[] read(String key) throws IOException {
        return files.read(key);
    }
}
