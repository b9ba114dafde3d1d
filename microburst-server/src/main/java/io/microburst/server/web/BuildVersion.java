package io.microburst.server.web;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The build's version of Microburst, from {@code build.properties} (filled in by Maven). Stateless. */
final class BuildVersion {
    private BuildVersion() {
    }

    static String get() {
        try (InputStream in = BuildVersion.class.getResourceAsStream("build.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }
}
