package io.microburst.it.soak;

import io.microburst.cli.Main;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One {@code microburst server} process on the soak's data folder: started as an operator starts it (its own JVM,
 * the command line's log configuration), SIGKILLed, started again on the same folder; and what the operating system
 * says about it (threads, open descriptors, subprocesses). Used by the test's thread only.
 */
final class SoakServer implements AutoCloseable {
    private static final Pattern SERVING = Pattern.compile(
        "Nimbus Thrift on 127\\.0\\.0\\.1:(\\d+), pages, Storm UI REST API and /metrics on http://127\\.0\\.0\\.1:(\\d+)/");

    private final Path dataDir;
    private final Path work;
    private int starts;
    private Process process;
    private Path output;
    private int thriftPort;
    private int uiPort;

    SoakServer(Path dataDir, Path work) {
        this.dataDir = dataDir;
        this.work = work;
    }

    /** Starts the server and waits until it serves (its stored topologies are restored by then). */
    void start() throws Exception {
        starts++;
        Path log4j = work.resolve("server-log4j2.xml");
        if (!Files.exists(log4j)) {
            URL config = Main.class.getResource("/log4j2.xml");
            try (InputStream in = config.openStream()) {
                Files.copy(in, log4j);
            }
        }
        Path tmp = Files.createDirectories(tmpDir());
        output = work.resolve("server-" + starts + ".txt");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx1g", "-Djava.io.tmpdir=" + tmp,
            "--add-opens", "java.base/java.util.concurrent.atomic=ALL-UNNAMED",
            "--add-opens", "java.base/java.lang=ALL-UNNAMED",
            "-Dlog4j2.configurationFile=" + log4j, "-cp", classPath(), Main.class.getName(),
            "server", "--dir", dataDir.toString(), "--port", "0", "--ui-port", "0", "-c", "logviewer.port=0"));
        process = new ProcessBuilder(command).directory(work.toFile()).redirectErrorStream(true)
            .redirectOutput(output.toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(240);
        while (true) {
            Matcher m = SERVING.matcher(output());
            if (m.find()) {
                thriftPort = Integer.parseInt(m.group(1));
                uiPort = Integer.parseInt(m.group(2));
                return;
            }
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new AssertionError("microburst server (start " + starts + ") did not serve\n" + output());
            }
            Thread.sleep(100);
        }
    }

    /** SIGKILL: no shutdown hook, no drain; returns once the process is gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    /** SIGTERM (the graceful stop), then SIGKILL after {@code seconds}. */
    void stop(long seconds) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            kill();
        }
    }

    boolean isAlive() {
        return process != null && process.isAlive();
    }

    long pid() {
        return process.pid();
    }

    int thriftPort() {
        return thriftPort;
    }

    String web() {
        return "http://127.0.0.1:" + uiPort;
    }

    Path dataDir() {
        return dataDir;
    }

    String output() throws IOException {
        return Files.exists(output) ? Files.readString(output, StandardCharsets.UTF_8) : "";
    }

    /** The token POSTs to the web port need, new at each start. */
    String token() throws IOException {
        return Files.readString(dataDir.resolve("ui-token"), StandardCharsets.UTF_8).trim();
    }

    int threads() throws IOException {
        return count(Path.of("/proc", Long.toString(pid()), "task"));
    }

    int openDescriptors() throws IOException {
        return count(Path.of("/proc", Long.toString(pid()), "fd"));
    }

    /** CPU time the server's process used so far (user and system), from /proc. */
    long cpuMillis() throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid()), "stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        // utime and stime, fields 14 and 15 of proc(5), in clock ticks (100 a second on Linux)
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 10;
    }

    /** The server's subprocesses (the multi-lang bolts' interpreters). */
    List<ProcessHandle> children() {
        return process.descendants().filter(ProcessHandle::isAlive).toList();
    }

    /** Runs a full collection in the server ({@code jcmd PID GC.run}); the heap it leaves is read from /metrics. */
    void collectGarbage() throws Exception {
        Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
            Long.toString(pid()), "GC.run").redirectErrorStream(true).start();
        String out = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!jcmd.waitFor(60, TimeUnit.SECONDS) || jcmd.exitValue() != 0) {
            throw new AssertionError("jcmd GC.run failed: " + out);
        }
    }

    /** The server's {@code java.io.tmpdir}: what a killed process leaves there is never deleted by anyone. */
    Path tmpDir() {
        return work.resolve("server-tmp");
    }

    /** Bytes under the server's temporary folder (as {@code Files.size} says: a sparse file counts whole). */
    long tmpBytes() throws IOException {
        try (Stream<Path> files = Files.walk(tmpDir())) {
            return files.mapToLong(SoakServer::size).sum();
        }
    }

    /** Bytes under the data folder, {@code logs/} left out or alone. */
    long diskBytes(boolean logsOnly) throws IOException {
        Path logs = dataDir.resolve("logs");
        try (Stream<Path> files = Files.walk(dataDir)) {
            return files.filter(p -> p.startsWith(logs) == logsOnly).mapToLong(SoakServer::size).sum();
        }
    }

    private static long size(Path p) {
        try {
            return Files.isRegularFile(p) ? Files.size(p) : 0;
        } catch (IOException e) {
            return 0; // deleted while walking
        }
    }

    private static int count(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return (int) entries.count();
        }
    }

    private static String classPath() {
        String surefire = System.getProperty("surefire.test.class.path");
        return surefire != null && !surefire.isBlank() ? surefire : System.getProperty("java.class.path");
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            kill();
        }
    }
}
