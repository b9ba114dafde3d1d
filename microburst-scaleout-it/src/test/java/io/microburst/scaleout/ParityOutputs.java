package io.microburst.scaleout;

import example.scaleout.ParityInput;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * What {@code example.scaleout.ParityTopology} wrote under one directory, reduced to values that do not depend on timing
 * or on which task wrote them: final word counts, the sorted ids the spout saw acked, the sorted window lines and the
 * sorted numbers written on ticks.
 */
record ParityOutputs(Map<String, Integer> wordCounts, List<Integer> acked, List<String> windows, List<Integer> ticked,
                     int wordCountLines) {

    /** Reads the complete lines of every part's files under {@code dir}. */
    static ParityOutputs read(Path dir) {
        Map<String, Integer> counts = new TreeMap<>();
        List<String> updates = lines(dir, "wordcount");
        for (String line : updates) {
            String[] wordCount = line.split(" ");
            counts.merge(wordCount[0], Integer.parseInt(wordCount[1]), Math::max);
        }
        List<Integer> acked = lines(dir, "acked").stream().map(Integer::valueOf).sorted().toList();
        List<String> windows = lines(dir, "window").stream().sorted((a, b) -> Integer.compare(first(a), first(b)))
            .toList();
        List<Integer> ticked = lines(dir, "tick").stream().map(Integer::valueOf).sorted().toList();
        return new ParityOutputs(counts, acked, windows, ticked, updates.size());
    }

    /** What a correct run writes, computed here from the input alone. */
    static ParityOutputs expected() {
        Map<String, Integer> counts = new TreeMap<>();
        int words = 0;
        for (String sentence : ParityInput.sentences()) {
            for (String word : sentence.split(" ")) {
                counts.merge(word, 1, Integer::sum);
                words++;
            }
        }
        List<Integer> ids = new ArrayList<>();
        for (int i = 0; i < ParityInput.IDS; i++) {
            ids.add(i);
        }
        List<String> windows = new ArrayList<>();
        for (int first = 0; first + ParityInput.WINDOW <= ParityInput.NUMBERS; first += ParityInput.WINDOW) {
            long sum = 0;
            for (int n = first; n < first + ParityInput.WINDOW; n++) {
                sum += n;
            }
            windows.add(first + " " + ParityInput.WINDOW + " " + sum);
        }
        List<Integer> numbers = new ArrayList<>();
        for (int i = 0; i < ParityInput.NUMBERS; i++) {
            numbers.add(i);
        }
        return new ParityOutputs(counts, ids, windows, numbers, words);
    }

    /** Whether as many lines as a complete run writes are there (more would be a duplicate, seen by the comparison). */
    boolean complete(ParityOutputs expected) {
        return wordCountLines >= expected.wordCountLines && acked.size() >= expected.acked.size()
            && windows.size() >= expected.windows.size() && ticked.size() >= expected.ticked.size();
    }

    private static int first(String windowLine) {
        return Integer.parseInt(windowLine.substring(0, windowLine.indexOf(' ')));
    }

    private static List<String> lines(Path dir, String part) {
        List<String> lines = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return lines;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.getFileName().toString().startsWith(part + "-")).toList()) {
                String text = Files.readString(file, StandardCharsets.UTF_8);
                // A last line without its newline is still being written.
                int end = text.lastIndexOf('\n');
                if (end >= 0) {
                    for (String line : text.substring(0, end).split("\n")) {
                        lines.add(line);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return lines;
    }
}
