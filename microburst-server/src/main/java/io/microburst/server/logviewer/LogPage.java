package io.microburst.server.logviewer;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The log page Storm's UI links to, {@code /api/v1/log?file=ID/PORT/worker.log&start=&length=&grep=}: a page of the
 * file's text ({@link LogText}) by bytes, by default its last {@value #DEFAULT_LENGTH}, with First/Prev/Next/Last
 * moving by {@code length} as Storm's logviewer does, the other files of the topology, a length selector, a filter
 * keeping the page's lines that contain {@code grep}, a search form and the download link. The markup is our
 * {@code log.html} beside this class with its fields filled in, every value escaped. Immutable; thread-safe.
 */
final class LogPage {
    static final int DEFAULT_LENGTH = 51200;
    /** The longest page, as Storm's logviewer (a longer {@code length} is cut to it). */
    static final int MAX_LENGTH = 10 << 20;
    private static final long[] LENGTHS = {10240, DEFAULT_LENGTH, 102400, 524288, 1 << 20};
    private static final Pattern FIELD = Pattern.compile("@([A-Z]+)@");

    private final String template;

    LogPage() {
        try (InputStream in = LogPage.class.getResourceAsStream("log.html")) {
            template = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Which bytes a page shows, and where its navigation leads: Storm's logviewer's arithmetic. */
    record Window(long start, long length, long size) {
        /** A page of {@code length} bytes (default, at most {@link #MAX_LENGTH}) from {@code start} (default: the end). */
        static Window of(Long start, Long length, long size) {
            long len = length == null ? DEFAULT_LENGTH : Math.max(1, Math.min(length, MAX_LENGTH));
            long from = start == null ? Math.max(0, size - len) : Math.min(start, size);
            return new Window(from, len, size);
        }

        long end() {
            return Math.min(size, start + length);
        }

        long previous() {
            return Math.max(0, start - length);
        }

        long next() {
            return Math.min(Math.max(0, size - length), start + length);
        }
    }

    /** The page of {@code file} (named {@code name}) for {@code window}; {@code files}: the topology's files. */
    String render(String name, Path file, Window window, String grep, List<String> files) throws IOException {
        boolean text = LogText.shown(name);
        String content;
        if (!text) {
            content = "This file is not text; download it to read it.";
        } else {
            content = new String(LogText.read(file, window.start(), (int) (window.end() - window.start())),
                StandardCharsets.UTF_8);
            if (grep != null && !grep.isEmpty()) {
                content = content.lines().filter(line -> line.contains(grep)).collect(Collectors.joining("\n"));
            }
        }
        String pager = text ? pager(name, window, grep) : "";
        Map<String, String> fields = Map.ofEntries(
            Map.entry("FILE", escape(name)),
            Map.entry("SUMMARY", escape(text ? "bytes " + window.start() + " to " + window.end() + " of " + window.size()
                + (grep == null || grep.isEmpty() ? "" : ", the lines containing \"" + grep + "\"") : window.size()
                + " bytes")),
            Map.entry("FILES", files.stream().map(f -> option(f, f, f.equals(name))).collect(Collectors.joining())),
            Map.entry("LENGTHS", lengths(window.length())),
            Map.entry("START", Long.toString(window.start())),
            Map.entry("LENGTH", Long.toString(window.length())),
            Map.entry("GREP", escape(grep == null ? "" : grep)),
            Map.entry("PAGER", pager),
            Map.entry("DOWNLOAD", escape("/api/v1/download?file=" + LogSearch.encode(name))),
            Map.entry("PLAIN", escape(link(name, window.start(), window.length(), null) + "&format=text")),
            Map.entry("TEXT", escape(content)));
        Matcher m = FIELD.matcher(template);
        StringBuilder page = new StringBuilder(template.length() + content.length() * 11 / 10);
        while (m.find()) {
            m.appendReplacement(page, Matcher.quoteReplacement(fields.getOrDefault(m.group(1), m.group())));
        }
        return m.appendTail(page).toString();
    }

    /** The page centred on a search match, as Storm's search answers link it. */
    static String centredLink(String origin, String name, long offset, int matchLength) {
        return origin + link(name, Math.max(0, offset - DEFAULT_LENGTH / 2 + matchLength / 2), DEFAULT_LENGTH, null);
    }

    /** The page's link; {@code start} null for the last page. */
    static String link(String name, Long start, long length, String grep) {
        return "/api/v1/log?file=" + LogSearch.encode(name) + (start == null ? "" : "&start=" + start) + "&length="
            + length + (grep == null || grep.isEmpty() ? "" : "&grep=" + LogSearch.encode(grep));
    }

    private static String pager(String name, Window w, String grep) {
        return "<nav class=\"pager\">"
            + button("first", "First", link(name, 0L, w.length(), grep), w.start() > 0)
            + button("prev", "Prev", link(name, w.previous(), w.length(), grep), w.previous() < w.start())
            + button("next", "Next", link(name, w.next(), w.length(), grep), w.next() > w.start())
            + button("last", "Last", link(name, null, w.length(), grep), w.end() < w.size())
            + "</nav>";
    }

    private static String button(String kind, String label, String href, boolean enabled) {
        return enabled ? "<a class=\"" + kind + "\" href=\"" + escape(href) + "\">" + label + "</a>"
            : "<span class=\"" + kind + " disabled\">" + label + "</span>";
    }

    private static String lengths(long current) {
        StringBuilder options = new StringBuilder();
        boolean listed = false;
        for (long length : LENGTHS) {
            listed |= length == current;
            options.append(option(Long.toString(length), kib(length), length == current));
        }
        return listed ? options.toString() : option(Long.toString(current), current + " bytes", true) + options;
    }

    private static String kib(long bytes) {
        return bytes % (1 << 20) == 0 ? (bytes >> 20) + " MiB" : (bytes >> 10) + " KiB";
    }

    private static String option(String value, String label, boolean selected) {
        return "<option value=\"" + escape(value) + "\"" + (selected ? " selected" : "") + ">" + escape(label)
            + "</option>";
    }

    static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
