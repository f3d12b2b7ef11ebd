package io.queenlake.connector.sink;

import io.queenlake.connector.window.WindowOptions;
import io.queenlake.format.key.Prefix;
import io.queenlake.format.model.Align;
import io.queenlake.format.model.Layout;
import io.queenlake.format.object.Format;
import io.queenlake.format.window.WriterSettings;
import io.queenlake.source.QueenOption;
import java.util.Optional;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ReadableConfig;

/**
 * The lake's key prefix and writer settings as a Flink configuration sets them
 * ({@link LakeSinkOptions#PREFIX}, {@link LakeSinkOptions#FORMAT} and its codec,
 * {@link LakeSinkOptions#LAYOUT}, {@link WindowOptions#ALIGN}, {@link WindowOptions#TARGET_MB}), over
 * what a builder holds: the sink's builder and {@code QueenLakeBuilder} read them alike.
 */
@Internal
public final class WriterOptions {

    private static final long MIB = 1024L * 1024L;

    private WriterOptions() {}

    /** The prefix the configuration sets, if it sets one; {@link Prefix}'s own rule refuses a bad one. */
    public static Optional<Prefix> prefix(ReadableConfig config) {
        return LakeSinkOptions.PREFIX.read(config).map(text -> {
            try {
                return Prefix.of(text);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(LakeSinkOptions.PREFIX.key() + "='" + text + "' is refused: "
                        + e.getMessage());
            }
        });
    }

    /**
     * {@code base} with what the configuration sets: a format keeps {@code base}'s codec when it is
     * the same format, else takes its own default unless its codec option is set; the codec option of
     * the other format is refused.
     */
    public static WriterSettings writerSettings(ReadableConfig config, WriterSettings base) {
        Format format = LakeSinkOptions.FORMAT.read(config).map(Format::named)
                .map(named -> named.name().equals(base.format().name()) ? base.format() : named)
                .orElse(base.format());
        QueenOption<String> unused = LakeSinkOptions.codecNotOf(format);
        QueenOption<String> used = LakeSinkOptions.codecOf(format);
        unused.read(config).ifPresent(codec -> {
            throw new IllegalArgumentException(unused.key() + "='" + codec + "' does not apply to "
                    + LakeSinkOptions.FORMAT.key() + "=" + format.name() + ": set " + used.key() + " (" + used.allowed()
                    + ") instead, or remove it.");
        });
        Format coded = used.read(config).map(format::withCodec).orElse(format);
        Layout layout = LakeSinkOptions.LAYOUT.read(config).orElse(base.layout());
        Align align = WindowOptions.ALIGN.read(config).orElse(base.align());
        long targetBytes = WindowOptions.TARGET_MB.read(config).map(mb -> mb * MIB).orElse(base.targetBytes());
        return new WriterSettings(coded, layout, align, targetBytes);
    }
}
