package io.microburst.it.durable;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Debian's redis-server on a free 127.0.0.1 port, with its own directory and no persistence, started and stopped by
 * the test. A test that needs it is skipped, saying how to get it, when redis-server is not installed.
 */
public final class RedisServer implements AutoCloseable {
    private final Process process;
    private final int port;

    private RedisServer(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    public static RedisServer startOrSkip(Path dir) throws Exception {
        Path executable = find();
        Assumptions.assumeTrue(executable != null,
                "redis-server is not installed: apt-get install redis-server (Debian's package) to run this test");
        int port = KafkaBroker.freePort();
        Process process = new ProcessBuilder(List.of(executable.toString(), "--port", Integer.toString(port),
                "--bind", "127.0.0.1", "--dir", dir.toString(), "--save", "", "--appendonly", "no",
                "--protected-mode", "yes", "--daemonize", "no"))
                .redirectErrorStream(true).redirectOutput(dir.resolve("redis.txt").toFile()).start();
        RedisServer server = new RedisServer(process, port);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!server.answersPing()) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                server.close();
                throw new IllegalStateException("redis-server did not start\n"
                        + Files.readString(dir.resolve("redis.txt"), StandardCharsets.UTF_8));
            }
            Thread.sleep(20);
        }
        return server;
    }

    private static Path find() {
        for (String entry : System.getenv().getOrDefault("PATH", "/usr/bin").split(File.pathSeparator)) {
            Path candidate = Path.of(entry, "redis-server");
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    private boolean answersPing() {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            OutputStream out = socket.getOutputStream();
            out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] reply = new byte[7];
            int read = in.readNBytes(reply, 0, reply.length);
            return new String(reply, 0, read, StandardCharsets.US_ASCII).startsWith("+PONG");
        } catch (IOException e) {
            return false;
        }
    }

    /** Sends a signal (STOP pauses the server, CONT resumes it) with the system's kill command. */
    void signal(String name) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder(List.of("kill", "-" + name, Long.toString(process.pid()))).start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IllegalStateException("kill -" + name + " " + process.pid() + " failed");
        }
    }

    public int port() {
        return port;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }
}
