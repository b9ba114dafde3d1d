package io.microburst.server.hostile;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.EOFException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.utils.NimbusClient;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile input on the Nimbus Thrift port and its jar uploads ({@code beginFileUpload}, {@code uploadChunk},
 * {@code finishFileUpload}): garbage bytes, calls naming uploads that do not exist, a file that is not a jar, a zip
 * bomb, entries that climb out ({@code ..}, absolute), a jar over the limit, an upload that never finishes, more
 * uploads at once than allowed. Each is refused with a Thrift error naming what was wrong and saying what to do; the
 * server keeps serving and nothing is written outside its folder. The malformed frames of
 * {@code ServerSecurityTest} stay there.
 */
@Timeout(300)
class UploadCampaignTest {
    @TempDir
    Path parent;

    @Test
    void theThriftPortAndItsUploadsRefuseHostileInputClearlyAndKeepServing() throws Exception {
        try (Campaign c = new Campaign(parent)) {
            Nimbus.Iface nimbus = c.nimbus();
            thrift(c, nimbus);
            uploads(c, nimbus);
            slowUpload(c, nimbus);
            parallelUploads(c);
            System.out.println(c.table());
            assertTrue(c.failures().isEmpty(), String.join("\n", c.failures()) + "\n" + c.table());
            Campaign.await("no upload left in the uploads folder", () -> count(c.server.dataDir().resolve("uploads")) == 0);
        }
    }

    private static void thrift(Campaign c, Nimbus.Iface nimbus) {
        int port = c.server.thriftPort();
        c.dropped("thrift", "an HTTP request on the Thrift port", () -> {
            try (Socket socket = new Socket("127.0.0.1", port)) {
                OutputStream out = socket.getOutputStream();
                out.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                socket.setSoTimeout(30_000);
                if (socket.getInputStream().read() < 0) {
                    throw new EOFException("closed by the server");
                }
            }
        });
        c.refused("thrift", "uploadChunk to an unknown location", "no upload in progress",
            () -> { nimbus.uploadChunk("upload-nosuch.jar", ByteBuffer.wrap(new byte[10])); return Campaign.accepted("chunk"); });
        c.refused("thrift", "uploadChunk to ../../etc/passwd", "no upload in progress",
            () -> { nimbus.uploadChunk("../../etc/passwd", ByteBuffer.wrap(new byte[10])); return Campaign.accepted("chunk"); });
        c.refused("thrift", "finishFileUpload of an unknown location", "no upload in progress",
            () -> { nimbus.finishFileUpload("nosuch"); return Campaign.accepted("finish"); });
        c.refused("thrift", "submitTopology naming a path as its jar", "no finished jar upload",
            () -> { nimbus.submitTopology("t1", "/etc/passwd", "{}", empty()); return Campaign.accepted("submit"); });
        c.refused("thrift", "submitTopology with a configuration that is not JSON", "JSON", () -> {
            String location = upload(nimbus, Jars.good());
            nimbus.submitTopology("t2", location, "{not json", empty());
            return Campaign.accepted("submit");
        });
        c.dropped("thrift", "a chunk larger than nimbus.thrift.max_buffer_size", () -> {
            try (NimbusClient own = client(c)) {
                String location = own.getClient().beginFileUpload();
                own.getClient().uploadChunk(location, ByteBuffer.wrap(new byte[3 << 20]));
            }
        });
    }

    private static void uploads(Campaign c, Nimbus.Iface nimbus) {
        c.refused("upload", "a file that is not a jar", "not a jar",
            () -> { upload(nimbus, Jars.notAJar()); return Campaign.accepted("finished"); });
        c.refused("upload", "a zip bomb (" + (Campaign.EXPANDED_MAX_BYTES * 4 >> 20) + " MB of zeros)", "expand",
            () -> { upload(nimbus, Jars.bomb(Campaign.EXPANDED_MAX_BYTES * 4)); return Campaign.accepted("finished"); });
        c.refused("upload", "an entry ../../evil.txt (zip slip)", "../../evil.txt",
            () -> { upload(nimbus, Jars.withEntry("../../evil.txt")); return Campaign.accepted("finished"); });
        c.refused("upload", "an entry /tmp/evil.txt (absolute)", "/tmp/evil.txt",
            () -> { upload(nimbus, Jars.withEntry("/tmp/evil.txt")); return Campaign.accepted("finished"); });
        c.refused("upload", "an entry resources/..\\..\\evil.txt", "evil.txt",
            () -> { upload(nimbus, Jars.withEntry("resources/..\\..\\evil.txt")); return Campaign.accepted("finished"); });
        c.refused("upload", "a jar over the limit", "larger than", () -> {
            upload(nimbus, new byte[(int) Campaign.UPLOAD_MAX_BYTES + 1]);
            return Campaign.accepted("finished");
        });
        c.refused("upload", "submitTopology of a refused upload", "no finished jar upload", () -> {
            String location = nimbus.beginFileUpload();
            nimbus.uploadChunk(location, ByteBuffer.wrap(Jars.notAJar()));
            try {
                nimbus.finishFileUpload(location);
            } catch (Exception refused) {
                // the upload is gone; submitting it must say so
            }
            nimbus.submitTopology("t3", location, "{}", empty());
            return Campaign.accepted("submit");
        });
    }

    /** An upload that stops sending: it expires, its file goes, and the server serves everyone else meanwhile. */
    private static void slowUpload(Campaign c, Nimbus.Iface nimbus) {
        c.refused("upload", "an upload that never finishes", "expired", () -> {
            String location = nimbus.beginFileUpload();
            nimbus.uploadChunk(location, ByteBuffer.wrap(new byte[1000]));
            String other = upload(nimbus, Jars.good()); // another client is served while this one stalls
            Path uploads = c.server.dataDir().resolve("uploads");
            Campaign.await("the stalled upload expires", () -> !exists(uploads, location));
            nimbus.uploadChunk(location, ByteBuffer.wrap(new byte[1000]));
            return Campaign.accepted("chunk after " + other);
        });
    }

    /** Uploads at once from many clients: all up to the limit succeed, the one past it is refused. */
    private static void parallelUploads(Campaign c) throws Exception {
        int clients = Campaign.MAX_OPEN_UPLOADS;
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            List<Future<String>> done = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                done.add(pool.submit((Callable<String>) () -> {
                    try (NimbusClient own = client(c)) {
                        return upload(own.getClient(), Jars.good());
                    }
                }));
            }
            for (Future<String> f : done) {
                assertTrue(f.get().startsWith("upload-"), f.get());
            }
        } finally {
            pool.shutdownNow();
        }
        c.refused("upload", "more uploads in progress than " + clients, "too many", () -> {
            try (NimbusClient own = client(c)) {
                for (int i = 0; i <= clients; i++) {
                    own.getClient().beginFileUpload();
                }
            }
            return Campaign.accepted("all begun");
        });
    }

    private static String upload(Nimbus.Iface nimbus, byte[] jar) throws Exception {
        String location = nimbus.beginFileUpload();
        for (int at = 0; at < jar.length; at += 256 << 10) {
            nimbus.uploadChunk(location, ByteBuffer.wrap(jar, at, Math.min(256 << 10, jar.length - at)));
        }
        nimbus.finishFileUpload(location);
        return location;
    }

    private static boolean exists(Path dir, String name) {
        return Files.exists(dir.resolve(name));
    }

    private static long count(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.count();
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    private static StormTopology empty() {
        return new StormTopology(new HashMap<>(), new HashMap<>(), new HashMap<>());
    }

    private static NimbusClient client(Campaign c) throws Exception {
        return new NimbusClient(new HashMap<>(Utils.readStormConfig()), c.server.host(), c.server.thriftPort(), 30_000);
    }
}
