package io.microburst.it.compat;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Storm 2.8.3's source release ({@code org.apache.storm:storm:2.8.3:zip:source-release} on Maven Central), which holds
 * Storm's own test suites, its integration-test module and its example modules. The build unpacks the parts the tests
 * read into {@code target/storm-2.8.3}; {@code -Dmicroburst.storm.src=DIR} (or {@code MICROBURST_STORM_SRC}) names
 * another unpacked copy instead.
 */
final class StormSourceRelease {
    static final String VERSION = "2.8.3";
    /** Long runs ({@code -Dmicroburst.long=true}) also compare the release's example modules. */
    static final boolean LONG_RUN = Boolean.getBoolean("microburst.long");
    static final String HOW_TO = "Storm " + VERSION + "'s source release is on Maven Central as org.apache.storm:storm:"
        + VERSION + ":zip:source-release; the build (mvn verify) unpacks it into microburst-it/target/storm-" + VERSION
        + ", or pass -Dmicroburst.storm.src=<an unpacked storm-" + VERSION + " directory>";

    private StormSourceRelease() {
    }

    /** The release's directory, when it holds {@code part} (a relative path such as {@code storm-core/test}), or null. */
    static Path find(String part) {
        String given = System.getProperty("microburst.storm.src", System.getenv("MICROBURST_STORM_SRC"));
        Path dir = given != null && !given.isBlank() ? Path.of(given) : Path.of("target", "storm-" + VERSION);
        return Files.isDirectory(dir.resolve(part)) ? dir.toAbsolutePath() : null;
    }

    /** As {@link #find}, on long runs only: the example modules take tens of minutes on both local modes. */
    static Path findOnLongRuns(String part) {
        return LONG_RUN ? find(part) : null;
    }
}
