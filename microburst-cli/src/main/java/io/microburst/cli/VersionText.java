package io.microburst.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import org.apache.storm.utils.VersionInfo;

/**
 * What {@code microburst version} and {@code microburst --version} print, the same text for both: the three lines
 * {@code storm version} prints for the Storm API Microburst runs, then Microburst's version (the build's, written into
 * {@code version.properties} by Maven's resource filtering, so a run from the classes folder knows it too) and Java's.
 *
 * <p>Threading: stateless; any thread.
 */
final class VersionText {
    private static final String RESOURCE = "version.properties";

    private VersionText() {
    }

    static String full() {
        String nl = System.lineSeparator();
        return "Storm " + VersionInfo.getVersion() + nl + "Branch " + VersionInfo.getBranch() + nl
            + "From source with checksum " + VersionInfo.getSrcChecksum() + nl
            + "microburst " + microburst() + nl
            + "Apache Storm API " + VersionInfo.getVersion() + nl
            + "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")";
    }

    /** The build's version of Microburst. */
    static String microburst() {
        try (InputStream in = VersionText.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the class path: rebuild microburst-cli");
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
