package io.queenlake.devstack.broker;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.function.Consumer;
import java.util.zip.CRC32;

/**
 * The broker's on-disk state: one append-only file of framed entries ({@code length, crc32, bytes}).
 * Reading stops at the first frame that is short or fails its checksum (a write torn by a crash), and
 * that tail is dropped. At every start the replayed state is rewritten as a compact snapshot, so the
 * file never carries retention-trimmed records or overwritten KV rows for more than one life.
 * Writes go straight to the file channel (no user-space buffer) before a request is answered, so a
 * killed broker loses nothing it acknowledged; only an OS crash can lose the unsynced tail.
 */
final class Journal implements AutoCloseable {

    static final String FILE_NAME = "broker.journal";
    private static final int HEADER = 8;
    /** No entry is near this (a push is capped far below it): a larger length is a torn or foreign frame. */
    private static final int MAX_ENTRY_BYTES = 1 << 30;

    private final Path file;
    private FileChannel channel;

    private Journal(Path file) {
        this.file = file;
    }

    /** Replays every intact entry of {@code dir}'s journal into {@code replay}. */
    static Journal open(Path dir, Consumer<JournalEntry> replay) throws IOException {
        Files.createDirectories(dir);
        Journal journal = new Journal(dir.resolve(FILE_NAME));
        if (Files.exists(journal.file)) {
            journal.replay(replay);
        }
        return journal;
    }

    /** Replaces the file by {@code snapshot} (atomically) and keeps it open for appends. */
    void rewrite(List<JournalEntry> snapshot) throws IOException {
        Path tmp = file.resolveSibling(FILE_NAME + ".tmp");
        try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            for (JournalEntry e : snapshot) {
                writeFully(out, frame(JournalCodec.encode(e)));
            }
            out.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        channel = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
    }

    /** Appends {@code entries} in one write; the caller holds the broker's write lock. */
    void append(List<JournalEntry> entries) throws IOException {
        if (entries.isEmpty()) {
            return;
        }
        ByteBuffer[] frames = new ByteBuffer[entries.size()];
        for (int i = 0; i < frames.length; i++) {
            frames[i] = frame(JournalCodec.encode(entries.get(i)));
        }
        for (ByteBuffer f : frames) {
            writeFully(channel, f);
        }
    }

    @Override
    public void close() throws IOException {
        if (channel != null) {
            channel.force(true);
            channel.close();
            channel = null;
        }
    }

    /** Streams the frames: a journal is routinely larger than one Java array (2 GiB) after a benchmark. */
    private void replay(Consumer<JournalEntry> replay) throws IOException {
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 20))) {
            while (true) {
                int length;
                int crc;
                try {
                    length = in.readInt();
                    crc = in.readInt();
                } catch (EOFException end) {
                    return;
                }
                if (length < 1 || length > MAX_ENTRY_BYTES) {
                    return;
                }
                byte[] body = new byte[length];
                try {
                    in.readFully(body);
                } catch (EOFException torn) {
                    return;
                }
                if (checksum(body) != crc) {
                    return;
                }
                replay.accept(JournalCodec.decode(body));
            }
        }
    }

    private static ByteBuffer frame(byte[] body) {
        ByteBuffer b = ByteBuffer.allocate(HEADER + body.length);
        b.putInt(body.length).putInt(checksum(body)).put(body).flip();
        return b;
    }

    private static int checksum(byte[] body) {
        CRC32 crc = new CRC32();
        crc.update(body);
        return (int) crc.getValue();
    }

    private static void writeFully(FileChannel ch, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            ch.write(b);
        }
    }
}
