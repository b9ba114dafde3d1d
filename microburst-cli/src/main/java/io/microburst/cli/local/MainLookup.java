package io.microburst.cli.local;

import io.microburst.cli.UsageException;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.List;

/** Finds and runs a topology jar's main class, saying in a usage error what is wrong with it. */
public final class MainLookup {
    private MainLookup() {
    }

    /**
     * @param loader the class loader that holds the jar's classes
     * @param jarName the jar as the user named it, for messages
     * @throws UsageException naming the class when it is missing, has no usable main, or cannot be loaded
     */
    public static Method find(ClassLoader loader, String mainClass, Path jarName) throws UsageException {
        try {
            return TopologyJar.findMain(mainClass, loader);
        } catch (ClassNotFoundException e) {
            throw new UsageException("class " + mainClass + " not found in " + jarName);
        } catch (NoSuchMethodException e) {
            throw new UsageException(mainClass + " has no public static void main(String[])");
        } catch (LinkageError e) {
            throw new UsageException("cannot load " + mainClass + ": " + e);
        }
    }

    /** Calls main with {@code loader} as the thread's context class loader; see {@link TopologyJar}. */
    public static void run(Method main, List<String> args, ClassLoader loader) throws TopologyMainFailedException {
        TopologyJar.runMain(main, args, loader);
    }
}
