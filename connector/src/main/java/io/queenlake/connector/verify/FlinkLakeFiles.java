package io.queenlake.connector.verify;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/** {@link LakeFiles} through Flink's file system for a root such as {@code s3://lake} or {@code file:///tmp/lake}. */
public final class FlinkLakeFiles implements LakeFiles {

    private final String root;
    private final FileSystem fs;

    public FlinkLakeFiles(String root) throws IOException {
        this.root = root.endsWith("/") ? root.substring(0, root.length() - 1) : root;
        this.fs = new Path(this.root).getFileSystem();
    }

    @Override
    public List<String> list(String keyPrefix) throws IOException {
        String dir = keyPrefix.endsWith("/") ? keyPrefix.substring(0, keyPrefix.length() - 1) : keyPrefix;
        List<String> keys = new ArrayList<>();
        Path start = new Path(root + "/" + dir);
        if (fs.exists(start)) {
            walk(start, dir, keys);
        }
        Collections.sort(keys);
        return keys;
    }

    private void walk(Path path, String key, List<String> keys) throws IOException {
        FileStatus[] children;
        try {
            children = fs.listStatus(path);
        } catch (FileNotFoundException gone) {
            return; // removed while the walk went on: a running job renames and deletes as it commits
        }
        if (children == null) {
            return;
        }
        for (FileStatus child : children) {
            String name = child.getPath().getName();
            if (name.startsWith(".")) {
                continue; // a writer's in-progress file, never an object of the lake
            }
            String childKey = key + "/" + name;
            if (child.isDir()) {
                walk(child.getPath(), childKey, keys);
            } else {
                keys.add(childKey);
            }
        }
    }

    @Override
    public byte[] read(String key) throws IOException {
        try (FSDataInputStream in = fs.open(new Path(root + "/" + key))) {
            return in.readAllBytes();
        } catch (FileNotFoundException absent) {
            return null;
        }
    }
}
