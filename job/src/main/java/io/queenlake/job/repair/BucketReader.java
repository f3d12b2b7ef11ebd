package io.queenlake.job.repair;

import io.queenlake.connector.verify.FlinkLakeFiles;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.OptionalLong;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * What the repair reads of the bucket, through Flink's file system for a root such as
 * {@code s3://lake} or {@code file:///tmp/lake}: a listing, a manifest's bytes, an object's length,
 * and an object's sha256 streamed (never held whole). An absent key is an answer (null or empty);
 * any other failure is the {@link IOException}, which the repair never takes for absence.
 */
final class BucketReader {

    private final String root;
    private final FileSystem fs;
    private final FlinkLakeFiles files;

    BucketReader(String root) throws IOException {
        this.root = root.endsWith("/") ? root.substring(0, root.length() - 1) : root;
        this.fs = new Path(this.root).getFileSystem();
        this.files = new FlinkLakeFiles(this.root);
    }

    List<String> list(String keyPrefix) throws IOException {
        return files.list(keyPrefix);
    }

    /** The key's bytes, or null when there is none. */
    byte[] read(String key) throws IOException {
        return files.read(key);
    }

    /** The key's length, or empty when there is no such object. */
    OptionalLong length(String key) throws IOException {
        try {
            return OptionalLong.of(fs.getFileStatus(path(key)).getLen());
        } catch (FileNotFoundException absent) {
            return OptionalLong.empty();
        }
    }

    /** Lowercase hex of the sha256 of the key's body, read as a stream; null when there is no such object. */
    String sha256(String key) throws IOException {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-256", e);
        }
        try (FSDataInputStream in = fs.open(path(key))) {
            update(digest, in);
        } catch (FileNotFoundException absent) {
            return null;
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    private static void update(MessageDigest digest, InputStream in) throws IOException {
        byte[] buffer = new byte[1 << 16];
        for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
            digest.update(buffer, 0, n);
        }
    }

    private Path path(String key) {
        return new Path(root + "/" + key);
    }
}
