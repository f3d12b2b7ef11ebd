package io.queenlake.format.object;

import io.queenlake.format.codec.ObjectEncoder;
import io.queenlake.format.codec.ObjectReader;
import io.queenlake.format.jsonl.Compression;
import io.queenlake.format.jsonl.JsonlObjectEncoder;
import io.queenlake.format.jsonl.JsonlObjectReader;
import io.queenlake.format.parquet.ParquetCodec;
import io.queenlake.format.parquet.ParquetObjectEncoder;
import io.queenlake.format.parquet.ParquetObjectReader;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What a lake object is written as: one value per format and codec, the only place where a
 * format's names, its key extension, its manifest fields and its writer string are spelled, and
 * where its encoder and the reader that reads it back are chosen. Everything else passes a
 * {@code Format} and asks it, as Flink's FileSink takes an encoder or a bulk writer factory, not a
 * name. A new format is one new record here and its codecs in {@link #ALL}.
 */
public sealed interface Format permits Format.Jsonl, Format.Parquet {

    /**
     * Every format and codec the lake writes. The lookups by name and by key go through it, and
     * the first value of a name is that name's default codec.
     */
    List<Format> ALL = List.of(
            new Jsonl(Compression.ZSTD), new Jsonl(Compression.GZIP), new Jsonl(Compression.NONE),
            new Parquet(ParquetCodec.ZSTD), new Parquet(ParquetCodec.SNAPPY));

    /** The names a setting accepts for this format, its {@link #name()} first. */
    List<String> names();

    /** The manifest's {@code format}, e.g. {@code jsonl}: the first of {@link #names()}. */
    default String name() {
        return names().get(0);
    }

    /** The manifest's {@code compression}: {@code zstd|gzip|none} for JSONL, {@code zstd|snappy} for Parquet. */
    String codecName();

    /** The key extension without the dot: {@code jsonl.zst}, {@code jsonl.gz}, {@code jsonl} or {@code parquet}. */
    String extension();

    /** The writer string after the version, e.g. {@code jsonl+zstd}, {@code jsonl}, {@code parquet+snappy}. */
    String describe();

    /** The writer string of manifest and intent, e.g. {@code queen-lake/0.1.0 jsonl+zstd}. */
    default String writer() {
        return ObjectEncoder.WRITER + " " + describe();
    }

    /** The pinned encoder of this format and codec; stateless, one instance may serve many threads. */
    ObjectEncoder encoder();

    /** The reader that reads an object of this format back, independently of {@link #encoder()}. */
    ObjectReader reader();

    /** The same format with the codec named {@code codec} (its aliases too, e.g. {@code gz}); refuses another. */
    Format withCodec(String codec);

    /**
     * The format named {@code name} (any of its {@link #names()}, in any case) with its default
     * codec; refuses an unknown name.
     */
    static Format named(String name) {
        String n = name == null ? "" : name.strip().toLowerCase(Locale.ROOT);
        return ALL.stream().filter(f -> f.names().contains(n)).findFirst().orElseThrow(() ->
                new IllegalArgumentException("format '" + n + "' is not one of "
                        + ALL.stream().map(Format::name).distinct().collect(Collectors.joining(", "))));
    }

    /** Every name a setting accepts for a format ({@code json}, {@code ndjson}, ...), by the format's {@link #name()}. */
    static Map<String, String> spellings() {
        Map<String, String> spellings = new LinkedHashMap<>();
        ALL.forEach(f -> f.names().forEach(n -> spellings.putIfAbsent(n, f.name())));
        return spellings;
    }

    /** The format named {@code name} with the codec named {@code codec}, e.g. {@code ("ndjson", "gz")}. */
    static Format of(String name, String codec) {
        return named(name).withCodec(codec);
    }

    /**
     * The reader of the object at {@code key}, found from the key's extension. A key names its
     * format but not a Parquet object's codec (that is in the file), hence a reader, not a format.
     */
    static ObjectReader readerFor(String key) {
        return byKey(key).map(Format::reader).orElseThrow(() -> new IllegalArgumentException("object " + key
                + " has no lake extension (" + ALL.stream().map(f -> "." + f.extension()).distinct()
                        .collect(Collectors.joining(", ")) + ")"));
    }

    /** Whether {@code key} ends in the extension of a lake object. */
    static boolean isObjectKey(String key) {
        return byKey(key).isPresent();
    }

    private static Optional<Format> byKey(String key) {
        return ALL.stream().filter(f -> key.endsWith("." + f.extension())).findFirst();
    }

    /** JSONL: one JSON line per record, the whole object compressed with {@code compression}. */
    record Jsonl(Compression compression) implements Format {
        public Jsonl {
            Objects.requireNonNull(compression, "compression");
        }

        @Override
        public List<String> names() {
            return List.of("jsonl", "json", "ndjson");
        }

        @Override
        public String codecName() {
            return compression.wireName();
        }

        @Override
        public String extension() {
            return switch (compression) {
                case ZSTD -> "jsonl.zst";
                case GZIP -> "jsonl.gz";
                case NONE -> "jsonl";
            };
        }

        @Override
        public String describe() {
            return switch (compression) {
                case ZSTD -> "jsonl+zstd";
                case GZIP -> "jsonl+gzip";
                case NONE -> "jsonl";
            };
        }

        @Override
        public ObjectEncoder encoder() {
            return JsonlObjectEncoder.of(compression);
        }

        @Override
        public ObjectReader reader() {
            return JsonlObjectReader.of(compression);
        }

        @Override
        public Format withCodec(String codec) {
            return new Jsonl(Compression.parse(codec));
        }

        @Override
        public String toString() {
            return describe();
        }
    }

    /** Parquet: one envelope row per record, the columns compressed with {@code codec}. */
    record Parquet(ParquetCodec codec) implements Format {
        public Parquet {
            Objects.requireNonNull(codec, "codec");
        }

        @Override
        public List<String> names() {
            return List.of("parquet");
        }

        @Override
        public String codecName() {
            return codec.wireName();
        }

        @Override
        public String extension() {
            return "parquet";
        }

        @Override
        public String describe() {
            return "parquet+" + codec.wireName();
        }

        @Override
        public ObjectEncoder encoder() {
            return ParquetObjectEncoder.of(codec);
        }

        @Override
        public ObjectReader reader() {
            return ParquetObjectReader.INSTANCE;
        }

        @Override
        public Format withCodec(String codec) {
            return new Parquet(ParquetCodec.parse(codec));
        }

        @Override
        public String toString() {
            return describe();
        }
    }
}
