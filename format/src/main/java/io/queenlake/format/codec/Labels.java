package io.queenlake.format.codec;

/**
 * The tenant and queue an object belongs to (unescaped names), as an encoder reads them: Parquet
 * writes them into its footer, JSONL leaves them out. The window encoder passes a
 * {@code window.ObjectLabels}.
 */
public interface Labels {
    String tenant();

    String queue();
}
