package io.queenlake.job.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Comparator;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The checkpoints a local run retained in its state folder, laid out as Flink writes them
 * ({@code <dir>/<job id>/chk-<n>/_metadata}). Only a checkpoint with its {@code _metadata} is
 * complete; the newest of those (by the time its metadata was written, then by number) is the one
 * to resume from, whichever earlier run of the job wrote it.
 */
final class RetainedCheckpoints {

    private static final Pattern CHECKPOINT = Pattern.compile("chk-(\\d+)");

    private RetainedCheckpoints() {}

    /** A complete retained checkpoint. */
    record Retained(Path dir, long number, FileTime written) {}

    static Optional<Retained> newest(Path checkpointsDir) {
        if (!Files.isDirectory(checkpointsDir)) {
            return Optional.empty();
        }
        try (Stream<Path> jobs = Files.list(checkpointsDir)) {
            return jobs.filter(Files::isDirectory)
                    .flatMap(RetainedCheckpoints::complete)
                    .max(Comparator.comparing(Retained::written).thenComparingLong(Retained::number));
        } catch (IOException e) {
            throw new UncheckedIOException("the state folder " + checkpointsDir + " cannot be read (" + e.getMessage()
                    + "): pass a readable --state-dir.", e);
        }
    }

    private static Stream<Retained> complete(Path jobDir) {
        try (Stream<Path> children = Files.list(jobDir)) {
            return children.map(dir -> {
                Matcher m = CHECKPOINT.matcher(dir.getFileName().toString());
                Path metadata = dir.resolve("_metadata");
                if (!m.matches() || !Files.isRegularFile(metadata)) {
                    return null;
                }
                try {
                    return new Retained(dir, Long.parseLong(m.group(1)), Files.getLastModifiedTime(metadata));
                } catch (IOException e) {
                    return null;
                }
            }).filter(r -> r != null).toList().stream();
        } catch (IOException e) {
            return Stream.empty();
        }
    }
}
