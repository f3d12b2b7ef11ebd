package io.queenlake.format.codec;

import java.io.IOException;
import java.util.List;

/**
 * Reads one lake object back into its records, with readers independent of the encoders (a
 * library's decompressor and parser, never the writer's own code), so that a verify run checks
 * the bytes rather than the writer against itself.
 */
@FunctionalInterface
public interface ObjectReader {

    /**
     * The records of the object, in the order the object holds them.
     *
     * @param key the object's key, named in errors
     * @throws IOException when the bytes are not an object of this format
     */
    List<DecodedRecord> read(String key, byte[] body) throws IOException;
}
