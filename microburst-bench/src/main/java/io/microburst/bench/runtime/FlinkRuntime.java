package io.microburst.bench.runtime;

import io.microburst.bench.workload.Workload;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.stream.Stream;

/**
 * The bench's side of the Flink runtime. Flink's jars never enter Microburst's class path: the
 * {@code microburst-bench-flink} module (built only with {@code -P flink}) copies them, with its own jar and everything
 * else a run needs, to its {@code target/lib/}, and only a Flink run's child JVM gets that class path, the way a Storm
 * cluster's workers get a Storm home of their own. Stateless; any thread.
 */
public final class FlinkRuntime {
    /** Where the module's build output is looked for when {@value #LIB_PROPERTY} is not set: from the working directory up. */
    static final String TARGET_IN_PROJECT = "microburst-bench-flink/target";
    /** System property naming the directory that holds the module's jar and its {@code lib/}. */
    public static final String LIB_PROPERTY = "microburst.flink.target";
    /** What to do when the jars are absent. */
    public static final String HOW_TO_BUILD =
        "build them with: mvn -B -P flink -pl microburst-bench-flink -am package -DskipTests";

    private FlinkRuntime() {
    }

    /**
     * The class path of a Flink run's JVM (the module's jar, then every jar of its {@code lib/}), or empty when the module
     * has not been built.
     */
    public static Optional<String> classPath() {
        Optional<Path> target = target();
        if (target.isEmpty()) {
            return Optional.empty();
        }
        try (Stream<Path> files = Files.list(target.get())) {
            Optional<Path> jar = files.filter(f -> f.getFileName().toString().startsWith("microburst-bench-flink-")
                && f.getFileName().toString().endsWith(".jar")).findFirst();
            if (jar.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(jar.get() + File.pathSeparator + target.get().resolve("lib") + File.separator + "*");
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static Optional<Path> target() {
        String configured = System.getProperty(LIB_PROPERTY);
        if (configured != null) {
            Path dir = Path.of(configured);
            return Files.isDirectory(dir.resolve("lib")) ? Optional.of(dir) : Optional.empty();
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path target = dir.resolve(TARGET_IN_PROJECT);
            if (Files.isDirectory(target.resolve("lib"))) {
                return Optional.of(target);
            }
        }
        return Optional.empty();
    }

    /** The launch of {@code workload}'s Flink job; fails with what to do when this JVM does not have Flink's jars. */
    static Runtimes.Launch prepare(Workload workload) {
        FlinkJobs jobs = ServiceLoader.load(FlinkJobs.class).findFirst().orElseThrow(() -> new IllegalStateException(
            "the Flink runtime is not on this JVM's class path; " + HOW_TO_BUILD));
        return jobs.prepare(workload);
    }
}
