package io.queenlake.format.jsonl;

import io.queenlake.format.model.LogRecord;
import io.queenlake.format.run.RecordEncoding;
import io.queenlake.format.run.RecordRun;

/** A JSONL record kept as its line, exactly as {@link JsonlObjectEncoder} writes it. */
final class JsonlLines implements RecordEncoding {

    static final String NAME = "jsonl-lines";

    private final JsonlLineWriter lines = new JsonlLineWriter(4 * 1024);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean append(LogRecord r, RecordRun run) {
        LineBuffer buffer = lines.buffer;
        buffer.size = 0;
        boolean rewritten = lines.append(r);
        run.add(r.offset(), r.tsMicros(), (int) r.weight(), buffer.bytes, 0, buffer.size);
        return rewritten;
    }
}
