package io.microburst.server.web;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A strict reader of Prometheus' text exposition format 0.0.4, for tests: every family declared once by {@code # TYPE}
 * before its samples, every sample named after a declared family (with the suffixes its type allows), well-formed
 * labels, a number for a value, no series twice. The client library writes this format but has no reader, so the
 * tests read it here. Throws {@link AssertionError} naming the line at the first fault.
 */
final class PrometheusText {
    private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern TYPE = Pattern.compile("# TYPE (" + NAME + ") (counter|gauge|histogram|summary|untyped)");
    private static final Pattern HELP = Pattern.compile("# HELP (" + NAME + ") .*");
    private static final Pattern SAMPLE = Pattern.compile("(" + NAME + ")(\\{(.*)})? (\\S+)( -?\\d+)?");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\\\n]|\\\\[\\\\n\"])*)\"(,|$)");
    private static final Map<String, List<String>> SUFFIXES = Map.of("counter", List.of("", "_total", "_created"),
        "gauge", List.of(""), "histogram", List.of("_bucket", "_sum", "_count", "_created"),
        "summary", List.of("", "_sum", "_count", "_created"), "untyped", List.of(""));

    /** A sample: its name, labels and value. */
    record Sample(String name, Map<String, String> labels, double value) {
    }

    private PrometheusText() {
    }

    /** The samples of a scrape, in order, after checking every line. */
    static List<Sample> parse(String text) {
        Map<String, String> types = new HashMap<>();
        Set<String> series = new HashSet<>();
        List<Sample> samples = new java.util.ArrayList<>();
        for (String line : text.split("\n")) {
            Matcher m;
            if (line.isEmpty() || HELP.matcher(line).matches()) {
                continue;
            }
            if ((m = TYPE.matcher(line)).matches()) {
                if (types.put(m.group(1), m.group(2)) != null) {
                    throw new AssertionError("family declared twice: " + line);
                }
                continue;
            }
            if (line.startsWith("#")) {
                throw new AssertionError("unknown comment line: " + line);
            }
            if (!(m = SAMPLE.matcher(line)).matches()) {
                throw new AssertionError("not a sample: " + line);
            }
            String name = m.group(1);
            if (family(name, types) == null) {
                throw new AssertionError("sample of no declared family: " + line);
            }
            Map<String, String> labels = labels(m.group(3) == null ? "" : m.group(3), line);
            double value;
            try {
                value = Double.parseDouble(m.group(4).replace("+Inf", "Infinity").replace("-Inf", "-Infinity"));
            } catch (NumberFormatException e) {
                throw new AssertionError("not a number: " + line);
            }
            if (!series.add(name + new java.util.TreeMap<>(labels))) {
                throw new AssertionError("series twice: " + line);
            }
            samples.add(new Sample(name, labels, value));
        }
        return samples;
    }

    private static String family(String sample, Map<String, String> types) {
        for (Map.Entry<String, String> t : types.entrySet()) {
            for (String suffix : SUFFIXES.get(t.getValue())) {
                if (sample.equals(t.getKey() + suffix)) {
                    return t.getKey();
                }
            }
        }
        return null;
    }

    private static Map<String, String> labels(String text, String line) {
        Map<String, String> labels = new HashMap<>();
        Matcher m = LABEL.matcher(text);
        int at = 0;
        while (at < text.length()) {
            if (!m.find(at) || m.start() != at) {
                throw new AssertionError("bad labels: " + line);
            }
            if (labels.put(m.group(1), m.group(2)) != null) {
                throw new AssertionError("label twice: " + line);
            }
            at = m.end();
        }
        return labels;
    }
}
