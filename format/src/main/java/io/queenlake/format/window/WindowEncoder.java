package io.queenlake.format.window;

import io.queenlake.format.codec.ObjectEncoder;
import io.queenlake.format.key.DataKey;
import io.queenlake.format.key.Prefix;
import io.queenlake.format.manifest.CheckpointDoc;
import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.manifest.ManifestObject;
import io.queenlake.format.manifest.ResumePositions;
import io.queenlake.format.model.Layout;
import io.queenlake.format.model.LogRecord;
import io.queenlake.format.object.Format;
import io.queenlake.format.order.OrderedRecords;
import io.queenlake.format.order.WindowRecordOrder;
import io.queenlake.format.run.OrderedRuns;
import io.queenlake.format.run.RecordEncoding;
import io.queenlake.format.run.RunSlice;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Turns a closed window into its objects and manifest: records put into lake order, encoded with
 * the pinned settings, keyed, hashed and counted. The result is a function of the window's record
 * set, its number and bounds, the queue and the settings alone; {@code committedAt} is left for
 * the committer. Owns no I/O beyond memory, and no state between calls: the sink encodes several
 * windows at once with one instance.
 */
public final class WindowEncoder {

    private final WriterSettings settings;
    private final ObjectEncoder encoder;
    private final Prefix prefix;
    private final String sink;

    public WindowEncoder(WriterSettings settings, Prefix prefix, String sink) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.encoder = settings.encoder();
        this.prefix = Objects.requireNonNull(prefix, "prefix");
        this.sink = Objects.requireNonNull(sink, "sink");
    }

    public WriterSettings settings() {
        return settings;
    }

    /** How an open window keeps records for this encoder's format: a new one, for one thread. */
    public RecordEncoding recordEncoding() {
        return encoder.recordEncoding();
    }

    public EncodedWindow encode(WindowContent window) throws IOException {
        return window instanceof WindowRuns runs ? encode(runs) : encode((WindowInput) window);
    }

    /**
     * A window kept as runs: the runs put in lake order (names, then incarnations; never the
     * records), each object's bytes the runs' bytes concatenated through the format's encoder.
     */
    public EncodedWindow encode(WindowRuns window) throws IOException {
        OrderedRuns ordered = OrderedRuns.of(window.runs());
        ObjectLabels labels = new ObjectLabels(window.tenant(), window.queue());
        List<EncodedObject> objects = new ArrayList<>();
        if (settings.layout() == Layout.MERGED) {
            objects.add(encodeObject(window, labels, ordered.slices(), (int) ordered.records(), null));
        } else {
            for (OrderedRuns.NameSpan span : ordered.names()) {
                List<RunSlice> group = ordered.slices().subList(span.from(), span.to());
                int records = 0;
                for (RunSlice s : group) {
                    records += s.size();
                }
                DataKey.PartitionSlice slice = new DataKey.PartitionSlice(span.partition(),
                        group.get(0).firstOffset(), group.get(group.size() - 1).lastOffset());
                objects.add(encodeObject(window, labels, group, records, slice));
            }
        }
        return new EncodedWindow(manifestOf(window, ordered.records(), ordered.names().size(), ordered.minTs(),
                ordered.maxTs(), ResumePositions.after(ordered), objects), objects);
    }

    public EncodedWindow encode(WindowInput window) throws IOException {
        OrderedRecords ordered = WindowRecordOrder.order(window.records());
        ObjectLabels labels = new ObjectLabels(window.tenant(), window.queue());
        List<EncodedObject> objects = new ArrayList<>();
        if (settings.layout() == Layout.MERGED) {
            objects.add(encodeObject(window, labels, ordered.records(), null));
        } else {
            Set<String> keys = new HashSet<>();
            for (OrderedRecords.PartitionSpan span : ordered.partitions()) {
                List<LogRecord> group = ordered.records().subList(span.from(), span.to());
                DataKey.PartitionSlice slice = new DataKey.PartitionSlice(span.partition(),
                        group.get(0).offset(), group.get(group.size() - 1).offset());
                EncodedObject object = encodeObject(window, labels, group, slice);
                if (!keys.add(object.key())) {
                    throw new IllegalStateException("two objects of window " + window.k() + " share the key "
                            + object.key());
                }
                objects.add(object);
            }
        }
        return new EncodedWindow(manifestOf(window, ordered, objects), objects);
    }

    private EncodedObject encodeObject(WindowInput w, ObjectLabels labels, List<LogRecord> records,
            DataKey.PartitionSlice slice) throws IOException {
        return object(w, records.size(), slice, Math.max(1024, records.size() * 64),
                out -> encoder.encode(records, labels, out));
    }

    private EncodedObject encodeObject(WindowRuns w, ObjectLabels labels, List<RunSlice> runs, int records,
            DataKey.PartitionSlice slice) throws IOException {
        long kept = 0;
        for (RunSlice run : runs) {
            kept += run.bytes();
        }
        // JSONL keeps each record's line: compressed they take a fraction; Parquet's rows about as much.
        int expected = (int) Math.min(Integer.MAX_VALUE - 16, Math.max(1024, kept / 4));
        return object(w, records, slice, expected, out -> encoder.encodeRuns(runs, labels, out));
    }

    private interface Body {
        void writeTo(DigestOutputStream out) throws IOException;
    }

    private EncodedObject object(WindowContent w, int records, DataKey.PartitionSlice slice, int expectedBytes,
            Body encode) throws IOException {
        MessageDigest sha = sha256();
        ByteArrayOutputStream body = new ByteArrayOutputStream(expectedBytes);
        try (DigestOutputStream out = new DigestOutputStream(body, sha)) {
            encode.writeTo(out);
        }
        String key = DataKey.forWindow(w.k(), w.bounds())
                .prefix(prefix)
                .tenant(w.tenant())
                .queue(w.queue())
                .align(settings.align())
                .extension(settings.format().extension())
                .slice(slice)
                .build()
                .render();
        byte[] bytes = body.toByteArray();
        String hex = HexFormat.of().formatHex(sha.digest());
        return new EncodedObject(new ManifestObject(key, bytes.length, records, hex, slice), bytes);
    }

    private Manifest manifestOf(WindowInput w, OrderedRecords ordered, List<EncodedObject> objects) {
        return manifestOf(w, ordered.records().size(), ordered.partitions().size(), ordered.minTs(), ordered.maxTs(),
                ResumePositions.after(ordered), objects);
    }

    private Manifest manifestOf(WindowContent w, long records, int partitions, long minTs, long maxTs,
            List<CheckpointDoc.Position> resume, List<EncodedObject> objects) {
        long bytes = 0;
        List<ManifestObject> entries = new ArrayList<>(objects.size());
        for (EncodedObject o : objects) {
            bytes += o.entry().bytes();
            entries.add(o.entry());
        }
        Format format = settings.format();
        return new Manifest(sink, w.tenant(), w.queue(), w.k(), w.tStart(), w.tEnd(), format.name(),
                format.codecName(), settings.layout(), entries, records, bytes, partitions, minTs, maxTs, w.lost(),
                resume, format.writer(), null);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-256", e);
        }
    }
}
