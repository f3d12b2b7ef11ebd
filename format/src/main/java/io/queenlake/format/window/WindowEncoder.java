package io.queenlake.format.window;

import io.queenlake.format.codec.ObjectEncoder;
import io.queenlake.format.key.DataKey;
import io.queenlake.format.key.Prefix;
import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.manifest.ManifestObject;
import io.queenlake.format.manifest.ResumePositions;
import io.queenlake.format.model.Layout;
import io.queenlake.format.model.LogRecord;
import io.queenlake.format.object.Format;
import io.queenlake.format.order.OrderedRecords;
import io.queenlake.format.order.WindowRecordOrder;
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
        MessageDigest sha = sha256();
        ByteArrayOutputStream body = new ByteArrayOutputStream(Math.max(1024, records.size() * 64));
        try (DigestOutputStream out = new DigestOutputStream(body, sha)) {
            encoder.encode(records, labels, out);
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
        return new EncodedObject(new ManifestObject(key, bytes.length, records.size(), hex, slice), bytes);
    }

    private Manifest manifestOf(WindowInput w, OrderedRecords ordered, List<EncodedObject> objects) {
        long bytes = 0;
        List<ManifestObject> entries = new ArrayList<>(objects.size());
        for (EncodedObject o : objects) {
            bytes += o.entry().bytes();
            entries.add(o.entry());
        }
        Format format = settings.format();
        return new Manifest(sink, w.tenant(), w.queue(), w.k(), w.tStart(), w.tEnd(), format.name(),
                format.codecName(), settings.layout(), entries, ordered.records().size(), bytes,
                ordered.partitions().size(), ordered.minTs(), ordered.maxTs(), w.lost(), ResumePositions.after(ordered),
                format.writer(), null);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-256", e);
        }
    }
}
