package io.microburst.server;

import io.microburst.server.web.JarMains;
import io.microburst.server.web.RequestBody;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.storm.Config;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.thrift.TException;
import org.apache.storm.utils.WrappedInvalidTopologyException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a topology jar's main in a JVM of its own, as {@code storm jar} does: the server's own class path (storm-client,
 * Microburst) followed by the jar, {@code storm.jar} naming the jar and {@code storm.options} aiming its
 * {@code StormSubmitter} at this server's Thrift port, with the caller's keys added. The user's main never runs in the
 * server's process: it may call {@code System.exit}, set static state or leave threads running, and storm-client's
 * submitter reads process-wide system properties. Its submit then arrives over Thrift as any client's does (upload
 * limits, checks, refusals), so the web port's upgrade takes the path {@code microburst upgrade} takes.
 *
 * <p>The jar is received into the uploads folder, at most the upload limit, and checked as an upload is
 * ({@link JarCheck}); the child's output goes to a file, logged when it fails; its refusal or failure comes back in one
 * line ({@link ChildSubmitMain}). Thread-safe: each call has its own files and process.
 */
final class ChildJvmSubmit implements JarMains {
    private static final Logger LOG = LoggerFactory.getLogger(ChildJvmSubmit.class);
    /** The most of a failed child's output logged. */
    private static final int LOGGED_OUTPUT = 64 << 10;
    /** Keys of the server's configuration that a client needs to reach it (its transport and authentication). */
    private static final List<String> CLIENT_KEYS = List.of(Config.STORM_THRIFT_TRANSPORT_PLUGIN,
        Config.NIMBUS_THRIFT_TRANSPORT_PLUGIN, Config.NIMBUS_THRIFT_MAX_BUFFER_SIZE);

    private final Path scratch;
    private final UploadLimits limits;
    private final Map<String, Object> clientConf;
    private final long timeoutSecs;

    /**
     * @param scratch where jars and the child's files are kept while it runs
     * @param host the address the Thrift service is reached on
     * @param serverConf the server's configuration, whose transport keys the child uses
     */
    ChildJvmSubmit(Path scratch, UploadLimits limits, String host, int thriftPort, Map<String, Object> serverConf,
                   long timeoutSecs) throws IOException {
        this.scratch = Files.createDirectories(scratch);
        this.limits = limits;
        this.timeoutSecs = timeoutSecs;
        Map<String, Object> client = new HashMap<>();
        for (String key : CLIENT_KEYS) {
            if (serverConf.get(key) != null) {
                client.put(key, serverConf.get(key));
            }
        }
        client.put(Config.NIMBUS_SEEDS, List.of(host));
        client.put(Config.NIMBUS_THRIFT_PORT, thriftPort);
        this.clientConf = Map.copyOf(client);
    }

    @Override
    public long maxJarBytes() {
        return limits.maxBytes();
    }

    @Override
    public Path scratchDir() {
        return scratch;
    }

    @Override
    public void run(String what, InputStream jar, String mainClass, List<String> args, Map<String, Object> conf)
        throws TException {
        String id = UUID.randomUUID().toString();
        Path jarFile = scratch.resolve("main-" + id + ".jar");
        Path result = scratch.resolve("main-" + id + ".result");
        Path output = scratch.resolve("main-" + id + ".log");
        try {
            receive(what, jar, jarFile);
            run(what, jarFile, result, output, mainClass, args, conf);
        } finally {
            JarUploads.deleteQuietly(jarFile);
            JarUploads.deleteQuietly(result);
            JarUploads.deleteQuietly(output);
        }
    }

    private void receive(String what, InputStream jar, Path file) {
        long received = 0;
        byte[] buffer = new byte[64 << 10];
        try (InputStream in = jar; OutputStream out = Files.newOutputStream(file)) {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                received += n;
                if (received > limits.maxBytes()) {
                    throw new RequestBody.TooLarge("the new jar of the " + what + " is larger than " + limits.maxBytes()
                        + " bytes (the limit is " + ServerConfig.UPLOAD_MAX_BYTES + "): upload a smaller jar, or "
                        + "raise the limit");
                }
                out.write(buffer, 0, n);
            }
        } catch (IOException e) {
            throw new IllegalArgumentException(what + ": the jar could not be received (" + e.getMessage() + "); send "
                + "it again");
        }
        String problem = received == 0 ? "the jar is empty; send the new jar as the request's body"
            : JarCheck.problem(file, limits.maxExpandedBytes());
        if (problem != null) {
            throw new IllegalArgumentException(what + ": " + problem);
        }
    }

    private void run(String what, Path jar, Path result, Path output, String mainClass, List<String> args,
                     Map<String, Object> conf) throws TException {
        Map<String, Object> options = new HashMap<>(clientConf);
        options.putAll(conf);
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto",
            "-cp", System.getProperty("java.class.path") + File.pathSeparator + jar,
            "-Dstorm.jar=" + jar, "-Dstorm.options=" + stormOptions(options)));
        String jaas = System.getProperty("java.security.auth.login.config");
        if (jaas != null) {
            command.add("-Djava.security.auth.login.config=" + jaas);
        }
        command.addAll(List.of(ChildSubmitMain.class.getName(), result.toString(), mainClass));
        command.addAll(args);
        Process child;
        try {
            child = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        } catch (IOException e) {
            throw new IllegalStateException(what + ": cannot start a JVM for the new jar's main: " + e.getMessage(), e);
        }
        int status;
        try {
            if (!child.waitFor(timeoutSecs, TimeUnit.SECONDS)) {
                child.destroyForcibly();
                throw failed(what, mainClass + ".main did not end within " + timeoutSecs + " s ("
                    + ServerConfig.UPGRADE_MAIN_TIMEOUT_SECS + ") and was stopped", output);
            }
            status = child.exitValue();
        } catch (InterruptedException e) {
            child.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException(what + ": interrupted while the new jar's main ran", e);
        }
        if (status != 0) {
            String line = firstLine(result);
            throw failed(what, line != null ? line : mainClass + ".main ended with exit status " + status
                + " (its output is in the server's log)", output);
        }
    }

    private static TException failed(String what, String why, Path output) {
        try {
            byte[] bytes = Files.readAllBytes(output);
            int from = Math.max(0, bytes.length - LOGGED_OUTPUT);
            LOG.warn("The new jar's main for the {} failed: {}; its output:\n{}", what, why,
                new String(bytes, from, bytes.length - from, StandardCharsets.UTF_8));
        } catch (IOException e) {
            LOG.warn("The new jar's main for the {} failed: {} (its output cannot be read: {})", what, why, e.toString());
        }
        return new WrappedInvalidTopologyException(why.startsWith("Upgrade of") ? why : what + ": " + why);
    }

    private static String firstLine(Path file) {
        try {
            String text = Files.readString(file, StandardCharsets.UTF_8).strip();
            return text.isEmpty() ? null : text.lines().findFirst().orElse(null);
        } catch (IOException e) {
            return null;
        }
    }

    /** {@code key=JSON} pairs, URL-encoded and comma-separated: what storm-client's {@code readCommandLineOpts} reads. */
    private static String stormOptions(Map<String, Object> conf) {
        List<String> pairs = new ArrayList<>();
        conf.forEach((key, value) -> pairs.add(URLEncoder.encode(key + "=" + JSONValue.toJSONString(value),
            StandardCharsets.UTF_8)));
        return String.join(",", pairs);
    }
}
