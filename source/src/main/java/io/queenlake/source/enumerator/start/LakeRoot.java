package io.queenlake.source.enumerator.start;

import io.queenlake.format.key.Prefix;
import java.net.URI;
import java.util.Objects;
import org.apache.flink.annotation.Internal;

/**
 * The lake's base path with its key prefix ({@code s3://bucket/queen}, {@code file:///data/lake/queen}),
 * split into the file system root ({@code s3://bucket/}) and the validated {@link Prefix}, so the
 * format module's key builders name every object and a listed path maps back to its key.
 */
@Internal
public record LakeRoot(String fileSystemRoot, Prefix prefix) {

    public LakeRoot {
        Objects.requireNonNull(fileSystemRoot, "fileSystemRoot");
        Objects.requireNonNull(prefix, "prefix");
    }

    /** Parses a lake root; every refusal is one sentence naming the value and what to write instead. */
    public static LakeRoot parse(String lakeRoot) {
        URI uri;
        try {
            uri = URI.create(lakeRoot.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the lake root '" + lakeRoot
                    + "' is not a URI: use scheme://bucket/prefix, e.g. s3://lake/queen or file:///data/lake/queen");
        }
        if (uri.getScheme() == null || uri.getPath() == null) {
            throw new IllegalArgumentException("the lake root '" + lakeRoot
                    + "' has no scheme or path: use scheme://bucket/prefix, e.g. s3://lake/queen or file:///data/lake/queen");
        }
        String path = uri.getPath();
        if (path.replace("/", "").isEmpty()) {
            throw new IllegalArgumentException("the lake root '" + lakeRoot
                    + "' has no key prefix after the bucket: append it, e.g. s3://lake/queen");
        }
        String authority = uri.getRawAuthority() == null ? "" : uri.getRawAuthority();
        return new LakeRoot(uri.getScheme() + "://" + authority + "/", Prefix.of(path));
    }

    /** The full path of a key under the prefix, for Flink's {@code FileSystem}. */
    public String path(String key) {
        return fileSystemRoot + key;
    }

    /** The key of a path the file system listed (its URI path without the leading slash). */
    public static String keyOf(URI listed) {
        String path = listed.getPath();
        int start = 0;
        while (start < path.length() && path.charAt(start) == '/') {
            start++;
        }
        return path.substring(start);
    }
}
