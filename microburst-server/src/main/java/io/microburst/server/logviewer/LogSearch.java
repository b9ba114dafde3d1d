package io.microburst.server.logviewer;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Storm's logviewer searches, with its JSON shapes: {@code /api/v1/search} in one file, {@code /api/v1/deepSearch/ID}
 * in a topology's worker logs, port by port, the rolled ones too when asked. Each match carries its byte offset in
 * the file's text, {@value Grep#CONTEXT} bytes of context on each side and the link to the log page centred on it.
 * The cost is bounded as Storm's: a search string of at most {@value #MAX_SEARCH_BYTES} bytes, at most {@value
 * #MAX_MATCHES} matches per answer, files read once each. Stateless; the request's thread.
 */
final class LogSearch {
    /** The longest search string, in UTF-8 bytes, as Storm's logviewer. */
    static final int MAX_SEARCH_BYTES = 1024;
    /** The most matches one request asks for (Storm's logviewer sets no limit). */
    static final int MAX_MATCHES = 1000;
    /** Storm's default {@code num-matches} of a search in one file, and of a deep search. */
    static final int FILE_MATCHES = 10;
    static final int DEEP_MATCHES = 1;

    private final LogFolder folder;

    LogSearch(LogFolder folder) {
        this.folder = folder;
    }

    /** The search string's bytes, refused when empty or longer than Storm's limit. */
    static byte[] needle(String search) {
        byte[] bytes = search == null ? new byte[0] : search.getBytes(StandardCharsets.UTF_8);
        if (bytes.length == 0 || bytes.length > MAX_SEARCH_BYTES) {
            throw new IllegalArgumentException("parameter search-string must be 1 to " + MAX_SEARCH_BYTES
                + " bytes of UTF-8, got " + bytes.length);
        }
        return bytes;
    }

    /**
     * One file's answer: {@code searchString}, {@code startByteOffset}, {@code matches} and, when the search stopped
     * at its limit with text left, {@code nextByteOffset} to go on from.
     *
     * @param name the file as {@code file=} names it ({@code ID/PORT/worker.log})
     * @param origin {@code http://HOST:PORT} of this logviewer, for the links
     */
    Map<String, Object> inFile(String name, Path file, byte[] needle, long start, int limit, String origin)
        throws IOException {
        Grep.Found found = Grep.search(file, needle, start, limit);
        String search = new String(needle, StandardCharsets.UTF_8);
        List<Object> matches = new ArrayList<>();
        for (Grep.Match m : found.matches()) {
            Map<String, Object> match = new LinkedHashMap<>();
            match.put("byteOffset", m.offset());
            match.put("beforeString", m.before());
            match.put("afterString", m.after());
            match.put("matchString", search);
            match.put("logviewerURL", LogPage.centredLink(origin, name, m.offset(), needle.length));
            matches.add(match);
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("isDaemon", "no");
        json.put("searchString", search);
        json.put("startByteOffset", start);
        json.put("matches", matches);
        if (found.more()) {
            json.put("nextByteOffset", found.matches().get(found.matches().size() - 1).offset() + needle.length);
        }
        return json;
    }

    /**
     * A topology's answer. For one port, Storm's {@code {"fileOffset", "searchString", "matches": [file answers with
     * "fileName" and "port"]}}, {@code fileOffset} being the index of the file the search stopped in; for every port
     * ({@code port} null or {@code *}) a list of those; {@code []} when the topology or port has no logs here, as
     * Storm's. Without {@code archived} only the live {@code worker.log} of each port is read.
     *
     * @throws NoSuchFileException when {@code topologyId} is no plain folder name (a path trick)
     */
    Object inTopology(String topologyId, byte[] needle, int limit, String port, int fileOffset, long byteOffset,
        boolean archived, String origin) throws IOException {
        if (topologyId.isBlank() || topologyId.equals(".") || topologyId.equals("..") || topologyId.contains("/")
            || topologyId.contains("\\") || topologyId.indexOf('\0') >= 0) {
            throw new NoSuchFileException(topologyId, null, "not a topology id");
        }
        Path root = folder.root();
        Path dir = root.resolve(topologyId);
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return List.of();
        }
        if (port == null || port.isEmpty() || port.equals("*")) {
            List<Object> byPort = new ArrayList<>();
            for (String p : LogListing.ports(root, topologyId)) {
                List<String> logs = LogListing.workerLogs(root, topologyId, p);
                if (!logs.isEmpty()) {
                    byPort.add(inPort(archived ? logs : logs.subList(0, 1), needle, limit, 0, 0, origin));
                }
            }
            return byPort;
        }
        if (!port.matches("[0-9]{1,5}")) {
            throw new IllegalArgumentException("parameter port must be a worker's port number or *: " + port);
        }
        List<String> logs = LogListing.workerLogs(root, topologyId, port);
        if (logs.isEmpty()) {
            return List.of();
        }
        return archived ? inPort(logs, needle, limit, fileOffset, byteOffset, origin)
            : inPort(logs.subList(0, 1), needle, limit, 0, byteOffset, origin);
    }

    /** Storm's deep search in one port's logs: file after file from {@code fileOffset} until {@code limit} matches. */
    private Map<String, Object> inPort(List<String> logs, byte[] needle, int limit, int fileOffset, long byteOffset,
        String origin) throws IOException {
        List<Object> files = new ArrayList<>();
        int found = 0;
        int index = fileOffset;
        long start = byteOffset;
        for (; index < logs.size(); index++, start = 0) {
            String name = logs.get(index);
            Path file = folder.file(name);
            if (file == null) {
                continue; // gone meanwhile, or a link out of the folder
            }
            Map<String, Object> answer;
            try {
                answer = inFile(name, file, needle, start, limit - found, origin);
            } catch (IllegalArgumentException pastTheEnd) {
                continue; // the byte offset is past this file's end: nothing in it, as Storm's
            }
            int matches = ((List<?>) answer.get("matches")).size();
            if (matches == 0) {
                continue;
            }
            answer.put("fileName", name);
            answer.put("port", Path.of(name).getName(1).toString());
            files.add(answer);
            found += matches;
            if (found >= limit) {
                break;
            }
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("fileOffset", index);
        json.put("searchString", new String(needle, StandardCharsets.UTF_8));
        json.put("matches", files);
        return json;
    }

    static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}
