package io.microburst.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.cli.Main;
import io.microburst.cli.testsupport.JavaProcess;
import io.microburst.cli.testsupport.TopologyJarBuilder;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code microburst server} writes to a topology's worker log, read through its logviewer as Storm's
 * integration tests read a worker's: a spout's own INFO line from a logger under {@code org.apache.storm} (where
 * Storm's test topologies live) and, with {@code topology.debug}, the line for every emit, as Storm's workers log them.
 */
class ServerWorkerLogEndToEndTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    private static final Pattern LISTENING = Pattern.compile("Nimbus Thrift on 127\\.0\\.0\\.1:(\\d+)");
    private static final Pattern LOGVIEWER = Pattern.compile("worker logs on (http://127\\.0\\.0\\.1:\\d+/api/v1/)");
    private static final String MAIN_CLASS = "org.apache.storm.probe.ProbeTopology";
    private static final String SOURCE = """
            package org.apache.storm.probe;

            import java.util.Map;
            import org.apache.storm.Config;
            import org.apache.storm.StormSubmitter;
            import org.apache.storm.spout.SpoutOutputCollector;
            import org.apache.storm.task.TopologyContext;
            import org.apache.storm.topology.OutputFieldsDeclarer;
            import org.apache.storm.topology.TopologyBuilder;
            import org.apache.storm.topology.base.BaseRichSpout;
            import org.apache.storm.tuple.Fields;
            import org.apache.storm.tuple.Values;
            import org.slf4j.Logger;
            import org.slf4j.LoggerFactory;

            public class ProbeTopology {
                public static void main(String[] args) throws Exception {
                    TopologyBuilder builder = new TopologyBuilder();
                    builder.setSpout("probe", new ProbeSpout(), 1);
                    Config conf = new Config();
                    conf.setDebug(true);
                    StormSubmitter.submitTopology("probe", conf, builder.createTopology());
                }

                public static class ProbeSpout extends BaseRichSpout {
                    private static final Logger LOG = LoggerFactory.getLogger(ProbeSpout.class);
                    private SpoutOutputCollector collector;
                    private boolean done;

                    @Override
                    public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
                        this.collector = collector;
                    }

                    @Override
                    public void nextTuple() {
                        if (!done) {
                            done = true;
                            LOG.info("probe spout says hello");
                            collector.emit(new Values("probe-value"));
                        }
                    }

                    @Override
                    public void declareOutputFields(OutputFieldsDeclarer declarer) {
                        declarer.declare(new Fields("word"));
                    }
                }
            }
            """;

    @TempDir
    Path dir;
    private final List<JavaProcess> processes = new ArrayList<>();
    private final HttpClient http = HttpClient.newHttpClient();

    @AfterEach
    void stopEverything() {
        processes.forEach(JavaProcess::close);
    }

    @Test
    void workerLogHoldsTheTopologysInfoAndDebugLines() throws Exception {
        Path jar = TopologyJarBuilder.build(Map.of(MAIN_CLASS, SOURCE), Files.createDirectories(dir.resolve("build")));
        JavaProcess server = start(List.of(), List.of(), Main.class.getName(), List.of("server", "--port", "0", "--ui-port", "0",
            "--dir", dir.resolve("data").toString(), "-c", "logviewer.port=0"));
        String started = await(server::stdout, text -> LOGVIEWER.matcher(text).find() || !server.isAlive(), server);
        Matcher thrift = LISTENING.matcher(started);
        Matcher logviewer = LOGVIEWER.matcher(started);
        assertTrue(thrift.find() && logviewer.find(), server.output());

        String options = URLEncoder.encode("nimbus.seeds=[\"127.0.0.1\"]", StandardCharsets.UTF_8) + ","
            + URLEncoder.encode("nimbus.thrift.port=" + thrift.group(1), StandardCharsets.UTF_8);
        JavaProcess submit = start(List.of("-Dstorm.jar=" + jar, "-Dstorm.options=" + options), List.of(jar),
            MAIN_CLASS, List.of());
        assertEquals(0, submit.waitFor(TIMEOUT), submit.output());

        String base = logviewer.group(1);
        String files = await(() -> get(base + "listLogs"), text -> text.contains("worker.log"), server);
        String file = (String) ((List<?>) JSONValue.parse(files)).get(0);
        assertTrue(file.matches("probe-\\d+-\\d+/1024/worker\\.log"), file);
        String log = await(() -> get(base + "download?file=" + URLEncoder.encode(file, StandardCharsets.UTF_8)),
            text -> text.contains("values=[probe-value]"), server);
        assertTrue(log.contains("[INFO] probe spout says hello"), log);
        assertTrue(log.contains("Emitting Tuple: taskId=") && log.contains("componentId=probe stream=default"), log);
    }

    private String get(String url) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url)).build(),
            HttpResponse.BodyHandlers.ofString());
        return response.statusCode() == 200 ? response.body() : "";
    }

    private JavaProcess start(List<String> jvm, List<Path> classPathPrefix, String main, List<String> args)
        throws Exception {
        Path workDir = Files.createDirectories(dir.resolve("run-" + processes.size()));
        JavaProcess process = JavaProcess.start(workDir, jvm, classPathPrefix, main, args);
        processes.add(process);
        return process;
    }

    private interface Text {
        String get() throws Exception;
    }

    private static String await(Text source, java.util.function.Predicate<String> done, JavaProcess context)
        throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        String text = source.get();
        while (!done.test(text)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not seen in time: " + text + "\n" + context.output());
            }
            Thread.sleep(50);
            text = source.get();
        }
        return text;
    }
}
