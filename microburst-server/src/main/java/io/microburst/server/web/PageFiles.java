package io.microburst.server.web;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The static files of the pages, all from the jar: the pages, their scripts and style next to this class, and the
 * graph and chart libraries from their WebJars ({@code /webjars/cytoscape/dist/cytoscape.min.js}, {@code
 * /webjars/echarts/dist/echarts.min.js}), served without the version in the
 * path, so the pages need no edit when the WebJar is upgraded). Nothing is fetched from elsewhere: the pages work
 * offline. HTML pages get the server's token in their {@code microburst-token} meta tag. Immutable; thread-safe.
 */
final class PageFiles {
    /** A file to send: its bytes and content type. */
    record File(byte[] bytes, String type) {
    }

    private static final Pattern PAGE = Pattern.compile("/([a-z][a-z-]*\\.(?:html|js|css))");
    private static final Pattern WEBJAR = Pattern.compile("/webjars/(cytoscape|echarts)/((?:[a-z]+/)*[a-z][a-z.-]*\\.(?:js|css))");
    private static final Map<String, String> TYPES = Map.of("html", "text/html", "js", "text/javascript", "css", "text/css");

    private final String token;

    PageFiles(String token) {
        this.token = token;
    }

    /** The file at a request path, or null when there is none. */
    File find(String path) throws IOException {
        String p = path.equals("/") ? "/index.html" : path;
        Matcher page = PAGE.matcher(p);
        if (page.matches()) {
            byte[] bytes = read(page.group(1));
            if (bytes != null && p.endsWith(".html")) {
                bytes = new String(bytes, StandardCharsets.UTF_8).replace("@TOKEN@", token).getBytes(StandardCharsets.UTF_8);
            }
            return bytes == null ? null : new File(bytes, type(p));
        }
        Matcher webjar = WEBJAR.matcher(p);
        if (webjar.matches()) {
            String version = webjarVersion(webjar.group(1));
            byte[] bytes = version == null ? null
                : read("/META-INF/resources/webjars/" + webjar.group(1) + "/" + version + "/" + webjar.group(2));
            return bytes == null ? null : new File(bytes, type(p));
        }
        return null;
    }

    private static String webjarVersion(String name) throws IOException {
        try (InputStream in = PageFiles.class.getResourceAsStream(
            "/META-INF/maven/org.webjars.npm/" + name + "/pom.properties")) {
            if (in == null) {
                return null;
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version");
        }
    }

    private static byte[] read(String resource) throws IOException {
        try (InputStream in = PageFiles.class.getResourceAsStream(resource)) {
            return in == null ? null : in.readAllBytes();
        }
    }

    private static String type(String path) {
        return TYPES.get(path.substring(path.lastIndexOf('.') + 1)) + "; charset=utf-8";
    }
}
