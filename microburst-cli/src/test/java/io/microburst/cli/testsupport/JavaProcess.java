package io.microburst.cli.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a main class in a fresh JVM (the test runtime's java, the test class path), from an argument list, with its
 * output captured in files. Always destroyed by {@link #close()}.
 */
public final class JavaProcess implements AutoCloseable {
    private final Process process;
    private final Path stdout;
    private final Path stderr;

    private JavaProcess(Process process, Path stdout, Path stderr) {
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
    }

    /**
     * @param classPathPrefix entries placed before the test class path (empty for none)
     */
    public static JavaProcess start(Path workDir, List<String> jvmOptions, List<Path> classPathPrefix,
                                    String mainClass, List<String> args) throws IOException {
        StringBuilder classPath = new StringBuilder();
        for (Path entry : classPathPrefix) {
            classPath.append(entry).append(java.io.File.pathSeparatorChar);
        }
        return startWithClassPath(workDir, jvmOptions, classPath.append(TestClassPath.get()).toString(), mainClass, args);
    }

    /** As {@link #start}, with {@code classPath} as the whole class path. */
    public static JavaProcess startWithClassPath(Path workDir, List<String> jvmOptions, String classPath,
                                                 String mainClass, List<String> args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(classPath);
        command.add(mainClass);
        command.addAll(args);
        Path out = workDir.resolve("stdout.txt");
        Path err = workDir.resolve("stderr.txt");
        Process process = new ProcessBuilder(command).directory(workDir.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        return new JavaProcess(process, out, err);
    }

    /** Waits for the process to exit; returns its exit status, or throws if it did not exit in time. */
    public int waitFor(Duration timeout) throws InterruptedException, IOException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("process did not exit within " + timeout + "\n" + output());
        }
        return process.exitValue();
    }

    /** Asks the process to stop as Ctrl-C or {@code kill} would (SIGTERM on Unix): its shutdown hooks run. */
    public void terminate() {
        process.destroy();
    }

    /** What the process printed so far, for assertion messages. */
    public String output() throws IOException {
        return "--- stdout ---\n" + Files.readString(stdout, StandardCharsets.UTF_8)
                + "\n--- stderr ---\n" + Files.readString(stderr, StandardCharsets.UTF_8);
    }

    public String stdout() throws IOException {
        return Files.readString(stdout, StandardCharsets.UTF_8);
    }

    public String stderr() throws IOException {
        return Files.readString(stderr, StandardCharsets.UTF_8);
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Kills the process if it is still running and waits briefly for it to go. */
    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
