package io.queenlake.format.testutils;

import com.github.luben.zstd.ZstdInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.zip.GZIPInputStream;

/** Decompresses JSONL objects with independent readers (zstd-jni's decoder, the JDK's gzip). */
public final class Decoded {

    private Decoded() {}

    public static byte[] jsonl(String extension, byte[] body) {
        try {
            InputStream in = switch (extension) {
                case "jsonl.zst" -> new ZstdInputStream(new ByteArrayInputStream(body));
                case "jsonl.gz" -> new GZIPInputStream(new ByteArrayInputStream(body));
                case "jsonl" -> new ByteArrayInputStream(body);
                default -> throw new IllegalArgumentException(extension);
            };
            try (in) {
                return in.readAllBytes();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
