package io.microburst.cli.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.apache.logging.log4j.LogManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JarLoggersTest {
    /**
     * The class path holds com.lib.Lib and org.lib.sub.X; the jar brings a package of its own (com.app), a class of its
     * own in a package of the class path (com.lib.Mine), a copy of a class path class (com.lib.Lib), a package of its
     * own above a class path package (org.lib, over org.lib.sub) and a class without a package.
     */
    @Test
    void showsExactlyTheClassesOnlyTheJarBrings(@TempDir Path dir) throws IOException {
        Path classes = dir.resolve("classes");
        for (String name : List.of("com/lib/Lib.class", "org/lib/sub/X.class", "META-INF/versions/11/com/app/V.class")) {
            Files.createDirectories(classes.resolve(name).getParent());
            Files.write(classes.resolve(name), new byte[0]);
        }
        Path jar = jar(dir.resolve("app.jar"), "com/app/App.class", "com/app/App$Inner.class", "com/lib/Mine.class",
            "com/lib/Lib.class", "org/lib/Y.class", "Top.class", "com/app/package-info.class", "META-INF/MANIFEST.MF",
            "module-info.class", "com/app/app.properties");

        JarLoggers loggers = JarLoggers.of(jar, List.of(dir.resolve("missing.jar"), classes));

        assertEquals(List.of("Top", "com.app", "com.lib.Mine", "org.lib"), loggers.shown());
        assertEquals(List.of("org.lib.sub"), loggers.kept());
    }

    /**
     * Applied to the command line's own configuration (this module's log4j2.xml, on the test class path): org.apache.storm
     * and the root give way, org.apache.kafka (a library the configuration quiets) does not.
     */
    @Test
    void appliesInfoToTheShownLoggersAndKeepsTheOthers() {
        JarLoggers loggers = new JarLoggers(List.of("org.apache.storm.jarloggerstest", "org.apache.storm.Mine",
            "com.jarloggerstest", "org.apache.kafka.jarloggerstest"), List.of("org.apache.storm.jarloggerstest.kept"));

        assertTrue(loggers.apply());

        assertTrue(LogManager.getLogger("org.apache.storm.jarloggerstest.Bolt").isInfoEnabled());
        assertTrue(LogManager.getLogger("org.apache.storm.Mine").isInfoEnabled());
        assertFalse(LogManager.getLogger("org.apache.storm.jarloggerstest.kept.Runtime").isInfoEnabled());
        assertTrue(LogManager.getLogger("com.jarloggerstest.Bolt").isInfoEnabled());
        assertFalse(LogManager.getLogger("org.apache.kafka.jarloggerstest.Consumer").isInfoEnabled(),
            "a library the configuration quiets stays quiet");
        assertFalse(LogManager.getLogger("org.apache.storm.Other").isInfoEnabled());
        assertTrue(LogManager.getLogger("org.apache.storm.Other").isWarnEnabled());
    }

    private static Path jar(Path file, String... names) throws IOException {
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(file))) {
            for (String name : names) {
                out.putNextEntry(new JarEntry(name));
                out.closeEntry();
            }
        }
        return file;
    }
}
