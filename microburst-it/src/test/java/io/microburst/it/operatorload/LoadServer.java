package io.microburst.it.operatorload;

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

/**
 * One {@code microburst server} in a JVM of its own, as an operator starts it, on the class path of this build or of
 * the one {@code -Dmicroburst.load.server.classpath} names (an older build, for an interleaved comparison); and the
 * CPU time the operating system counted for it. {@code -Dmicroburst.load.server.jvm.args} adds options to the server's
 * JVM (e.g. a flight recording; {@code LABEL} in them becomes the build's label). Used by the test's thread only.
 */
final class LoadServer implements AutoCloseable {
    private static final Pattern SERVING = Pattern.compile(
        "Nimbus Thrift on 127\\.0\\.0\\.1:(\\d+), pages, Storm UI REST API and /metrics on http://127\\.0\\.0\\.1:(\\d+)/");

    private final Process process;
    private final Path output;
    private final Path dataDir;
    private final int thriftPort;
    private final int uiPort;

    private LoadServer(Process process, Path output, Path dataDir, int thriftPort, int uiPort) {
        this.process = process;
        this.output = output;
        this.dataDir = dataDir;
        this.thriftPort = thriftPort;
        this.uiPort = uiPort;
    }

    /** Starts a server on a fresh data folder under {@code work} and waits until it serves. */
    static LoadServer start(Path work, String classPath, String label) throws Exception {
        Path log4j = work.resolve("server-log4j2.xml");
        if (!Files.exists(log4j)) {
            URL config = Main.class.getResource("/log4j2.xml");
            try (InputStream in = config.openStream()) {
                Files.copy(in, log4j);
            }
        }
        Path dataDir = work.resolve("data-" + label);
        Path output = work.resolve("server-" + label + ".txt");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
            .toString(), "-Xmx1g", "-Djava.io.tmpdir=" + Files.createDirectories(work.resolve("tmp")),
            "-Dlog4j2.configurationFile=" + log4j));
        String extra = System.getProperty("microburst.load.server.jvm.args", "").replace("LABEL", label);
        if (!extra.isBlank()) {
            command.addAll(List.of(extra.trim().split("\\s+")));
        }
        command.addAll(List.of("-cp", classPath, Main.class.getName(), "server", "--dir", dataDir.toString(),
            "--port", "0", "--ui-port", "0", "-c", "logviewer.port=0"));
        Process process = new ProcessBuilder(command).directory(work.toFile()).redirectErrorStream(true)
            .redirectOutput(output.toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(240);
        while (true) {
            String text = Files.exists(output) ? Files.readString(output, StandardCharsets.UTF_8) : "";
            Matcher m = SERVING.matcher(text);
            if (m.find()) {
                return new LoadServer(process, output, dataDir, Integer.parseInt(m.group(1)),
                    Integer.parseInt(m.group(2)));
            }
            if (!process.isAlive() || System.nanoTime() > deadline) {
                process.destroyForcibly();
                throw new AssertionError("microburst server (" + label + ") did not serve\n" + text);
            }
            Thread.sleep(100); // polls the server's output for its serving line
        }
    }

    /** This build's class path (surefire's), which runs the server as the tests run it. */
    static String ownClassPath() {
        String surefire = System.getProperty("surefire.test.class.path");
        return surefire != null && !surefire.isBlank() ? surefire : System.getProperty("java.class.path");
    }

    int thriftPort() {
        return thriftPort;
    }

    String web() {
        return "http://127.0.0.1:" + uiPort;
    }

    long pid() {
        return process.pid();
    }

    String token() throws IOException {
        return Files.readString(dataDir.resolve("ui-token"), StandardCharsets.UTF_8).trim();
    }

    /** CPU time the server's process used so far (user and system), from /proc, in milliseconds. */
    long cpuMillis() throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid()), "stat"));
        List<String> fields = List.of(stat.substring(stat.lastIndexOf(')') + 2).split(" "));
        // utime and stime, fields 14 and 15 of proc(5), in clock ticks (100 a second on Linux)
        return (Long.parseLong(fields.get(11)) + Long.parseLong(fields.get(12))) * 10;
    }

    String output() throws IOException {
        return Files.readString(output, StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor();
        }
    }
}
