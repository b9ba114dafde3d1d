package io.microburst.bench.topology;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** The text file the WordCount spout cycles over, read into memory once. Immutable. */
public final class TextCorpus {
    /** Classpath location of the text. */
    public static final String RESOURCE = "/io/microburst/bench/wordcount.txt";

    private TextCorpus() {
    }

    /** The non-blank lines of the text, in file order. */
    public static List<String> lines() {
        try (InputStream in = TextCorpus.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + RESOURCE);
            }
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            List<String> lines = new ArrayList<>();
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (!line.isBlank()) {
                    lines.add(line);
                }
            }
            return List.copyOf(lines);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
