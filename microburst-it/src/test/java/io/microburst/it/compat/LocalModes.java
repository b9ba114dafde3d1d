package io.microburst.it.compat;

import io.microburst.cli.Main;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.apache.storm.LocalCluster;

/**
 * Runs a topology jar's main as a user would on each local mode, each in a JVM of its own: {@code microburst local
 * --duration N} (Microburst's command) and {@code storm local} (what Storm's command runs: {@link LocalCluster}'s main,
 * with the topology jar on the class path and {@code storm.local.sleeptime} N). Both print their logs with the same
 * log4j configuration, so what a topology logs can be compared line by line.
 */
public final class LocalModes {
    static final String MICROBURST = "microburst local";
    static final String STORM = "storm local";
    /** Start-up, the run itself and a graceful stop must fit in this, on a loaded machine. */
    private static final long EXIT_LIMIT_SECONDS = 240;
    /** The JVM options the {@code microburst} launcher passes (see the script at the project's root). */
    private static final String[] LAUNCHER_OPTIONS = {"--add-opens", "java.base/java.util.concurrent.atomic=ALL-UNNAMED",
        "--add-opens", "java.base/java.lang=ALL-UNNAMED"};

    private LocalModes() {
    }

    /** What one run printed, and how it ended. */
    record Output(String mode, int exitCode, String text) {
        List<String> lines() {
            return text.lines().toList();
        }
    }

    /**
     * A topology jar: the entries of {@code bases} (jars or class directories), then {@code extra} (name to content),
     * the first entry of a name winning.
     */
    public static Path jar(Path target, List<Path> bases, Map<String, byte[]> extra) throws IOException {
        Set<String> names = new HashSet<>();
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(target))) {
            for (Map.Entry<String, byte[]> e : extra.entrySet()) {
                put(out, names, e.getKey(), e.getValue());
            }
            for (Path base : bases) {
                if (Files.isDirectory(base)) {
                    try (Stream<Path> files = Files.walk(base)) {
                        for (Path file : files.filter(Files::isRegularFile).toList()) {
                            put(out, names, base.relativize(file).toString().replace(File.separatorChar, '/'),
                                Files.readAllBytes(file));
                        }
                    }
                } else {
                    try (JarInputStream in = new JarInputStream(Files.newInputStream(base))) {
                        for (JarEntry entry = in.getNextJarEntry(); entry != null; entry = in.getNextJarEntry()) {
                            if (!entry.isDirectory() && !entry.getName().startsWith("META-INF/")) {
                                put(out, names, entry.getName(), in.readAllBytes());
                            }
                        }
                    }
                }
            }
        }
        return target;
    }

    private static void put(JarOutputStream out, Set<String> names, String name, byte[] content) throws IOException {
        if (names.add(name)) {
            out.putNextEntry(new JarEntry(name));
            out.write(content);
            out.closeEntry();
        }
    }

    /** {@code microburst local --duration seconds jar mainClass args...}. */
    static Output microburst(Path dir, Path jar, int seconds, String mainClass, List<String> args) throws Exception {
        return microburst(dir, jar, seconds, mainClass, args, Map.of());
    }

    /** {@code microburst local --duration seconds --conf key=value... jar mainClass args...}. */
    static Output microburst(Path dir, Path jar, int seconds, String mainClass, List<String> args,
                             Map<String, String> conf) throws Exception {
        List<String> command = new ArrayList<>(List.of("local", "--duration", Integer.toString(seconds)));
        conf.forEach((key, value) -> command.addAll(List.of("--conf", key + "=" + value)));
        command.addAll(List.of(jar.toString(), mainClass));
        command.addAll(args);
        return run(MICROBURST, dir, classPath(), Main.class.getName(), command, LAUNCHER_OPTIONS);
    }

    /** {@code storm local jar mainClass args...} with the topology left running for {@code seconds}. */
    static Output storm(Path dir, Path jar, int seconds, String mainClass, List<String> args) throws Exception {
        return storm(dir, jar, seconds, mainClass, args, Map.of());
    }

    /**
     * {@code storm local -c key=value... jar mainClass args...}: Storm's script hands the {@code -c} values to the JVM
     * as {@code storm.options}, URL-encoded.
     */
    static Output storm(Path dir, Path jar, int seconds, String mainClass, List<String> args,
                        Map<String, String> conf) throws Exception {
        List<String> command = new ArrayList<>(List.of(mainClass));
        command.addAll(args);
        List<String> jvmOptions = new ArrayList<>(List.of("-Dstorm.local.sleeptime=" + seconds, "-Dstorm.jar=" + jar));
        List<String> options = new ArrayList<>();
        conf.forEach((key, value) -> options.add(URLEncoder.encode(key + "=" + value, StandardCharsets.UTF_8)));
        if (!options.isEmpty()) {
            jvmOptions.add("-Dstorm.options=" + String.join(",", options));
        }
        return run(STORM, dir, classPath() + File.pathSeparator + jar, LocalCluster.class.getName(), command,
            jvmOptions.toArray(new String[0]));
    }

    private static Output run(String mode, Path dir, String classPath, String mainClass, List<String> args,
                              String... jvmOptions) throws Exception {
        Path work = Files.createDirectories(dir.resolve(mode.replace(' ', '-')));
        Path log4j = work.resolve("log4j2.xml");
        try (InputStream in = LocalModes.class.getResourceAsStream("local-modes-log4j2.xml")) {
            Files.copy(in, log4j, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx768m");
        command.add("-Djava.io.tmpdir=" + Files.createDirectories(work.resolve("tmp")));
        command.add("-Dlog4j.configurationFile=" + log4j);
        command.add("-Dlog4j2.configurationFile=" + log4j);
        command.addAll(List.of(jvmOptions));
        command.add("-cp");
        command.add(classPath);
        command.add(mainClass);
        command.addAll(args);
        Path output = work.resolve("output.txt");
        Process process = new ProcessBuilder(command).directory(work.toFile()).redirectErrorStream(true)
            .redirectOutput(output.toFile()).redirectInput(ProcessBuilder.Redirect.from(devNull())).start();
        try {
            if (!process.waitFor(EXIT_LIMIT_SECONDS, TimeUnit.SECONDS)) {
                throw new AssertionError(mode + " did not exit within " + EXIT_LIMIT_SECONDS + " s\n"
                    + Files.readString(output, StandardCharsets.UTF_8));
            }
        } finally {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
        return new Output(mode, process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
    }

    private static File devNull() {
        return new File(File.separatorChar == '\\' ? "NUL" : "/dev/null");
    }

    static String classPath() {
        String surefire = System.getProperty("surefire.test.class.path");
        return surefire != null && !surefire.isBlank() ? surefire : System.getProperty("java.class.path");
    }

    /** A resource of the test class path, as bytes (something a topology jar needs). */
    static byte[] resource(Class<?> anchor, String name) throws IOException {
        try (InputStream in = anchor.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException("no resource " + name + " on the test class path");
            }
            return in.readAllBytes();
        }
    }
}
