package io.queenlake.format.cli;

import io.queenlake.format.key.Prefix;
import io.queenlake.format.key.SidecarKeys;
import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.manifest.ManifestJson;
import io.queenlake.format.model.Align;
import io.queenlake.format.model.Layout;
import io.queenlake.format.object.Format;
import io.queenlake.format.window.EncodedObject;
import io.queenlake.format.window.EncodedWindow;
import io.queenlake.format.window.WindowEncoder;
import io.queenlake.format.window.WindowInput;
import io.queenlake.format.window.WriterSettings;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code sample <dir>}: writes {@link SampleWindow} in every format under {@code <dir>/<variant>/}
 * (the variant is the key prefix, e.g. {@code jsonl-zstd}), objects at their Hive-layout keys and
 * manifests beside them under {@code _queen/}, then prints a DuckDB query per variant. Manifests
 * are stamped at the window's end instead of the wall clock, so a sample is reproducible.
 */
public final class SampleCommand {

    /** One format of the sample. */
    public record Variant(String name, WriterSettings settings) {
        public String glob(Path dir) {
            String ext = settings.format().extension();
            return dir.resolve(name) + "/tenant=*/queue=*/dt=*/hour=*/*." + ext;
        }

        public String duckDbQuery(Path dir) {
            String select = "SELECT partition, \"offset\", ts, payload, dt, hour FROM ";
            String order = " ORDER BY partition, \"offset\";";
            if (settings.format() instanceof Format.Parquet) {
                return select + "read_parquet('" + glob(dir) + "', hive_partitioning = true)" + order;
            }
            return select + "read_json('" + glob(dir) + "', format = 'newline_delimited', hive_partitioning = true, "
                    + "columns = {partition: 'VARCHAR', \"offset\": 'BIGINT', transactionId: 'VARCHAR', "
                    + "ts: 'VARCHAR', payload: 'JSON'})" + order;
        }
    }

    /** One variant per format and codec, named after both, e.g. {@code jsonl-zstd}. */
    public static final List<Variant> VARIANTS = Format.ALL.stream()
            .map(f -> new Variant(f.name() + "-" + f.codecName(),
                    new WriterSettings(f, Layout.MERGED, Align.HOUR, WriterSettings.DEFAULT_TARGET_BYTES)))
            .toList();

    private SampleCommand() {}

    /** Writes every variant it can; returns the ones written. */
    public static List<Variant> run(Path dir, PrintStream out) throws IOException {
        List<Variant> written = new ArrayList<>();
        for (Variant v : VARIANTS) {
            try {
                int objects = write(dir, v);
                out.println(v.name() + ": " + objects + " objects, writer '" + v.settings().describe() + "'");
                written.add(v);
            } catch (UnsupportedOperationException e) {
                out.println(v.name() + ": skipped, " + e.getMessage());
            }
        }
        out.println();
        out.println("Read it with DuckDB, e.g.:");
        for (Variant v : written) {
            out.println("  " + v.duckDbQuery(dir));
        }
        return written;
    }

    static int write(Path dir, Variant v) throws IOException {
        Prefix prefix = Prefix.of(v.name());
        WindowEncoder encoder = new WindowEncoder(v.settings(), prefix, "default");
        SidecarKeys sidecars = new SidecarKeys(prefix, SampleWindow.TENANT, SampleWindow.QUEUE);
        int objects = 0;
        for (WindowInput w : SampleWindow.windows()) {
            EncodedWindow encoded = encoder.encode(w);
            for (EncodedObject o : encoded.objects()) {
                writeFile(dir.resolve(o.key()), o.body());
                objects++;
            }
            Manifest stamped = encoded.manifest().withCommittedAt(w.tEnd() / 1000);
            writeFile(dir.resolve(sidecars.manifest(w.k())), ManifestJson.write(stamped));
        }
        return objects;
    }

    private static void writeFile(Path file, byte[] body) throws IOException {
        Files.createDirectories(file.getParent());
        Files.write(file, body);
    }
}
