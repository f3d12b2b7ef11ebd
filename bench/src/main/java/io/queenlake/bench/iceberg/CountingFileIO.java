package io.queenlake.bench.iceberg;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import java.io.File;
import java.net.URI;
import org.apache.iceberg.Files;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;
import org.apache.iceberg.io.SeekableInputStream;

/**
 * A file IO on local files (Iceberg's own {@code Files.localInput}/{@code localOutput}: Hadoop's
 * local file system forks a {@code chmod} for every file it creates, about 100 ms an append) that counts what the catalog client does to the table's files: files
 * opened for reading, files written, files deleted, and the bytes read and written. The catalog
 * builds it from {@code io-impl}, so the counts are the process's ({@link Counts}).
 */
public final class CountingFileIO implements FileIO {

    /**
     * What every CountingFileIO of the process counted, apart for the table upkeep's thread
     * ({@link #UPKEEP}: expiry and orphan removal, off the commit's path) and every other thread
     * ({@link #APPEND}: the appends, and the merges they make on Iceberg's worker pool).
     */
    static final class Counts {
        static final Counts APPEND = new Counts();
        static final Counts UPKEEP = new Counts();
        /** The name of the job's upkeep thread (TableMaintenance). */
        private static final String UPKEEP_THREAD = "queen-lake-iceberg-maintenance";

        final AtomicLong reads = new AtomicLong();
        final AtomicLong writes = new AtomicLong();
        final AtomicLong deletes = new AtomicLong();
        final AtomicLong bytesRead = new AtomicLong();
        final AtomicLong bytesWritten = new AtomicLong();

        /** The counts of the calling thread's kind. */
        static Counts here() {
            return Thread.currentThread().getName().startsWith(UPKEEP_THREAD) ? UPKEEP : APPEND;
        }

        long[] now() {
            return new long[] {reads.get(), writes.get(), deletes.get(), bytesRead.get(), bytesWritten.get()};
        }

        private Counts() {}
    }

    public CountingFileIO() {}

    private static File local(String path) {
        return path.startsWith("file:") ? new File(URI.create(path)) : new File(path);
    }

    @Override
    public InputFile newInputFile(String path) {
        InputFile in = Files.localInput(local(path));
        return counted(new InputFile() {
            @Override
            public long getLength() {
                return in.getLength();
            }

            @Override
            public SeekableInputStream newStream() {
                return in.newStream();
            }

            @Override
            public String location() {
                return path;
            }

            @Override
            public boolean exists() {
                return in.exists();
            }
        });
    }

    @Override
    public OutputFile newOutputFile(String path) {
        File file = local(path);
        file.getParentFile().mkdirs();
        OutputFile local = Files.localOutput(file);
        OutputFile out = new OutputFile() {
            @Override
            public PositionOutputStream create() {
                return local.create();
            }

            @Override
            public PositionOutputStream createOrOverwrite() {
                return local.createOrOverwrite();
            }

            @Override
            public String location() {
                return path;
            }

            @Override
            public InputFile toInputFile() {
                return newInputFile(path);
            }
        };
        return new OutputFile() {
            @Override
            public PositionOutputStream create() {
                return counted(out.create());
            }

            @Override
            public PositionOutputStream createOrOverwrite() {
                return counted(out.createOrOverwrite());
            }

            @Override
            public String location() {
                return out.location();
            }

            @Override
            public InputFile toInputFile() {
                return out.toInputFile();
            }
        };
    }

    @Override
    public void deleteFile(String path) {
        Counts.here().deletes.incrementAndGet();
        local(path).delete();
    }

    private static InputFile counted(InputFile in) {
        return new InputFile() {
            @Override
            public long getLength() {
                return in.getLength();
            }

            @Override
            public SeekableInputStream newStream() {
                Counts.here().reads.incrementAndGet();
                SeekableInputStream s = in.newStream();
                return new SeekableInputStream() {
                    @Override
                    public long getPos() throws IOException {
                        return s.getPos();
                    }

                    @Override
                    public void seek(long pos) throws IOException {
                        s.seek(pos);
                    }

                    @Override
                    public int read() throws IOException {
                        int b = s.read();
                        if (b >= 0) {
                            Counts.here().bytesRead.incrementAndGet();
                        }
                        return b;
                    }

                    @Override
                    public int read(byte[] b, int off, int len) throws IOException {
                        int n = s.read(b, off, len);
                        if (n > 0) {
                            Counts.here().bytesRead.addAndGet(n);
                        }
                        return n;
                    }

                    @Override
                    public void close() throws IOException {
                        s.close();
                    }
                };
            }

            @Override
            public String location() {
                return in.location();
            }

            @Override
            public boolean exists() {
                return in.exists();
            }
        };
    }

    private static PositionOutputStream counted(PositionOutputStream s) {
        Counts.here().writes.incrementAndGet();
        return new PositionOutputStream() {
            @Override
            public long getPos() throws IOException {
                return s.getPos();
            }

            @Override
            public void write(int b) throws IOException {
                s.write(b);
                Counts.here().bytesWritten.incrementAndGet();
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                s.write(b, off, len);
                Counts.here().bytesWritten.addAndGet(len);
            }

            @Override
            public void flush() throws IOException {
                s.flush();
            }

            @Override
            public void close() throws IOException {
                s.close();
            }
        };
    }
}
