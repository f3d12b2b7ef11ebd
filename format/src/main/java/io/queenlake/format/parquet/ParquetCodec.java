package io.queenlake.format.parquet;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/** The column codecs of the lake contract: zstd (level 3, see {@link ParquetSettings}) or snappy. */
public enum ParquetCodec {
    ZSTD("zstd", CompressionCodecName.ZSTD),
    SNAPPY("snappy", CompressionCodecName.SNAPPY);

    private final String wireName;
    private final CompressionCodecName parquetName;

    ParquetCodec(String wireName, CompressionCodecName parquetName) {
        this.wireName = wireName;
        this.parquetName = parquetName;
    }

    /** The manifest's {@code compression}. */
    public String wireName() {
        return wireName;
    }

    CompressionCodecName parquetName() {
        return parquetName;
    }

    /** Every spelling a setting accepts, by its wire name. */
    public static Map<String, String> spellings() {
        Map<String, String> spellings = new LinkedHashMap<>();
        for (ParquetCodec c : values()) {
            spellings.put(c.wireName, c.wireName);
        }
        return spellings;
    }

    /** Accepts {@code zstd} or {@code snappy}, in any case. */
    public static ParquetCodec parse(String text) {
        String s = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        for (ParquetCodec c : values()) {
            if (c.wireName.equals(s)) {
                return c;
            }
        }
        throw new IllegalArgumentException("parquet codec '" + text + "' is not one of zstd, snappy");
    }
}
