package io.queenlake.job.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Optional;

/**
 * {@code QUEEN_S3_ENDPOINT}: an S3 API server ({@code http(s)://host[:port]}, no path: the bucket
 * and the prefix have their own settings), AWS S3 when unset, or a local folder
 * ({@code file:///dir}) whose sub-folder named like the bucket holds the lake, as the embedded S3
 * server lays it out; the local folder serves tests and single-machine runs.
 */
public record LakeEndpoint(Optional<URI> uri) {

    static final LakeEndpoint AWS = new LakeEndpoint(Optional.empty());

    static LakeEndpoint parse(String raw, Origin origin) {
        if (raw == null) {
            return AWS;
        }
        URI uri;
        try {
            uri = new URI(raw.strip());
        } catch (URISyntaxException e) {
            throw Setting.ENDPOINT.refusal(raw, origin, "is not a URL");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme();
        if (scheme.equals("file")) {
            String path = uri.getPath();
            if (uri.getAuthority() != null || path == null || !path.startsWith("/") || path.replace("/", "").isEmpty()) {
                throw Setting.ENDPOINT.refusal(raw, origin, "is not a local folder with an absolute path");
            }
            String folder = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
            return new LakeEndpoint(Optional.of(URI.create("file://" + folder)));
        }
        if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
            throw Setting.ENDPOINT.refusal(raw, origin, "is not an http(s) URL with a host");
        }
        if (uri.getRawPath() != null && !uri.getRawPath().isEmpty() && !uri.getRawPath().equals("/")) {
            throw Setting.ENDPOINT.refusal(raw, origin, "has a path (" + uri.getRawPath()
                    + "; put the bucket in QUEEN_S3_BUCKET and folders in QUEEN_S3_PREFIX)");
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null || uri.getRawUserInfo() != null) {
            throw Setting.ENDPOINT.refusal(raw, origin, "carries a query, fragment or user");
        }
        return new LakeEndpoint(Optional.of(URI.create(scheme + "://" + uri.getRawAuthority())));
    }

    /** Whether the lake is a local folder ({@code file:///dir}) rather than S3. */
    public boolean isLocalFolder() {
        return uri.map(u -> u.getScheme().equals("file")).orElse(false);
    }

    /** Whether the lake is reached over plain {@code http://}, where no KMS header may be sent. */
    boolean isPlainHttp() {
        return uri.map(u -> u.getScheme().equals("http")).orElse(false);
    }

    /** The file system root of {@code bucket}: {@code s3://bucket} or {@code file:///dir/bucket}. */
    String root(String bucket) {
        return isLocalFolder() ? uri.get() + "/" + bucket : "s3://" + bucket;
    }

    /** The endpoint for messages and logs: its URL, or {@code AWS S3}. */
    public String text() {
        return uri.map(URI::toString).orElse("AWS S3");
    }
}
