package io.microburst.server.web;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Storm 2.8.3's {@code docs/STORM-UI-REST-API.md} (unpacked from its source release by the build) read as data: each
 * documented endpoint ({@code ### /api/v1/... (GET|POST)}) with the fields of its response tables (the tables whose
 * first column is {@code Field}).
 */
final class StormRestApiDocument {
    private static final Pattern HEADING = Pattern.compile("^###\\s+(/api/v1/\\S+)\\s*(?:\\((GET|POST)\\))?\\s*$");

    /**
     * One documented endpoint: its path (with Storm's {@code <id>}-style placeholders), method, fields and each field's
     * documented value type ({@code String}, {@code Long}, {@code Double}, {@code Array}...).
     */
    record Endpoint(String path, String method, List<String> fields, Map<String, String> types) {
    }

    private StormRestApiDocument() {
    }

    static Path file() {
        return Path.of(System.getProperty("storm.ui.rest.doc", "target/storm-2.8.3/docs/STORM-UI-REST-API.md"));
    }

    static List<Endpoint> read(Path doc) throws IOException {
        Map<String, Endpoint> endpoints = new LinkedHashMap<>();
        Endpoint current = null;
        boolean inFieldTable = false;
        for (String raw : Files.readAllLines(doc)) {
            String line = raw.strip();
            Matcher heading = HEADING.matcher(line);
            if (heading.matches()) {
                String path = heading.group(1).replace("\\<", "<").replace("\\>", ">");
                String method = heading.group(2) == null ? "GET" : heading.group(2);
                current = new Endpoint(path, method, new ArrayList<>(), new LinkedHashMap<>());
                endpoints.put(method + " " + path, current);
                inFieldTable = false;
                continue;
            }
            if (line.startsWith("#")) {
                current = null;
                continue;
            }
            if (current == null) {
                continue;
            }
            if (!line.startsWith("|")) {
                // a blank line inside a table (the metrics endpoint's has one) does not end it
                inFieldTable &= line.isBlank();
                continue;
            }
            String[] cells = line.substring(1).split("\\|", -1);
            String first = cells[0].trim();
            if (first.equals("Field")) {
                inFieldTable = true;
            } else if (inFieldTable && !first.isEmpty() && !first.startsWith("-")) {
                current.fields().add(first);
                current.types().put(first, cells.length > 1 ? cells[1].trim() : "");
            }
        }
        return new ArrayList<>(endpoints.values());
    }
}
