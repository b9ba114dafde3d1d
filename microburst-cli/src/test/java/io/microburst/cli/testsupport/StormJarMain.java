package io.microburst.cli.testsupport;

import io.microburst.cli.local.MainLookup;
import io.microburst.cli.local.TopologyJar;
import java.nio.file.Path;
import java.util.List;

/** Runs a topology jar's main in this JVM as {@code storm jar} would: {@code storm.jar} names the jar while it runs. */
public final class StormJarMain {
    private StormJarMain() {
    }

    public static void run(Path jarFile, String mainClass, List<String> args) throws Exception {
        String previous = System.setProperty("storm.jar", jarFile.toString());
        try (TopologyJar jar = new TopologyJar(jarFile)) {
            MainLookup.run(MainLookup.find(jar.classLoader(), mainClass, jarFile), args, jar.classLoader());
        } finally {
            if (previous == null) {
                System.clearProperty("storm.jar");
            } else {
                System.setProperty("storm.jar", previous);
            }
        }
    }
}
