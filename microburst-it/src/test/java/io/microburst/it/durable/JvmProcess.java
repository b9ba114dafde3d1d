package io.microburst.it.durable;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A main class run in a JVM of its own (this runtime's java, the test class path), started from an argument list,
 * its output in a file. {@link #kill()} is SIGKILL: no shutdown hook runs, as when a machine loses the process.
 */
final class JvmProcess implements AutoCloseable {
    private final Process process;
    private final Path output;
    final long startedAtMillis;

    private JvmProcess(Process process, Path output, long startedAtMillis) {
        this.process = process;
        this.output = output;
        this.startedAtMillis = startedAtMillis;
    }

    static JvmProcess start(Path output, List<String> jvmOptions, String mainClass, List<String> args)
            throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(classPath());
        command.add(mainClass);
        command.addAll(args);
        long started = System.currentTimeMillis();
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(output.toFile()).start();
        return new JvmProcess(process, output, started);
    }

    static String classPath() {
        String surefire = System.getProperty("surefire.test.class.path");
        return surefire != null && !surefire.isBlank() ? surefire : System.getProperty("java.class.path");
    }

    String output() throws IOException {
        return Files.exists(output) ? Files.readString(output, StandardCharsets.UTF_8) : "";
    }

    boolean isAlive() {
        return process.isAlive();
    }

    long pid() {
        return process.pid();
    }

    int waitFor(long seconds) throws InterruptedException, IOException {
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            throw new AssertionError("process did not exit within " + seconds + " s\n" + output());
        }
        return process.exitValue();
    }

    /** SIGKILL, then waits until the process is gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    /** SIGTERM (shutdown hooks run), then SIGKILL if the process is still there after {@code seconds}. */
    void stop(long seconds) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            kill();
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill();
        }
    }
}
