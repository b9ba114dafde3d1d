package io.microburst.it.parity;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.it.support.Await;
import io.microburst.it.support.FixedTuplesSpout;
import io.microburst.it.support.Topologies;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.storm.Config;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.metrics2.reporters.ConsoleStormReporter;
import org.apache.storm.metrics2.reporters.CsvStormReporter;
import org.apache.storm.metrics2.reporters.ScheduledStormReporter;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Metrics v2 reporters configured with {@code topology.metrics.reporters} (storm-client's own) start with the topology, report
 * its v2 metrics (a user's counter and Storm's built-in ones) and stop when it is killed, on both runtimes.
 */
class MetricsReportersParityTest extends ParityTestSupport {
    private static final int TUPLES = 30;
    private static final String USER_COUNTER = "it-counted";

    @Test
    void csvReporterWritesUserAndBuiltinMetricsAndStopsOnKill(@TempDir Path dir) throws Exception {
        for (String runtime : RUNTIMES) {
            Path csv = Files.createDirectories(dir.resolve(runtime));
            Config conf = Topologies.baseConf();
            conf.put(Config.TOPOLOGY_METRICS_REPORTERS, List.of(Map.of("class", CsvStormReporter.class.getName(),
                CsvStormReporter.CSV_LOG_DIR, csv.toString(), ScheduledStormReporter.REPORT_PERIOD, 1,
                ScheduledStormReporter.REPORT_PERIOD_UNITS, "SECONDS")));
            runOn(runtime, "csv", MetricsReportersParityTest::counted, conf,
                events -> lastCount(csv, "-" + USER_COUNTER + ".csv") == TUPLES
                    && lastCount(csv, "-__execute-count-spout:default.csv") == TUPLES
                    && lastCount(csv, "-__emit-count-default.csv") == TUPLES, Await.DEFAULT_LIMIT);
            Await.until(runtime + ": the CSV reporter's thread ends with the topology",
                () -> reporterThreads("csv-reporter") == 0, Duration.ofSeconds(30));
        }
    }

    @Test
    void consoleReporterPrintsTheTopologysMetrics() throws Exception {
        PrintStream out = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(new Tee(out, printed), true, StandardCharsets.UTF_8));
        try {
            for (String runtime : RUNTIMES) {
                printed.reset();
                Config conf = Topologies.baseConf();
                conf.put(Config.TOPOLOGY_METRICS_REPORTERS, List.of(Map.of("class", ConsoleStormReporter.class.getName(),
                    ScheduledStormReporter.REPORT_PERIOD, 1, ScheduledStormReporter.REPORT_PERIOD_UNITS, "SECONDS")));
                runOn(runtime, "console", MetricsReportersParityTest::counted, conf, events -> {
                    String text = printed.toString(StandardCharsets.UTF_8);
                    return text.contains("-" + USER_COUNTER) && text.contains("count = " + TUPLES)
                        && text.contains("-__execute-count-spout:default");
                }, Await.DEFAULT_LIMIT);
                Await.until(runtime + ": the console reporter's thread ends with the topology",
                    () -> reporterThreads("console-reporter") == 0, Duration.ofSeconds(30));
            }
        } finally {
            System.setOut(out);
        }
    }

    private static long reporterThreads(String reporter) {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("metrics-" + reporter)).count();
    }

    /** The count on the last line of the CSV file whose name ends with {@code suffix}, or -1. */
    private static long lastCount(Path dir, String suffix) {
        try (Stream<Path> files = Files.list(dir)) {
            Path file = files.filter(p -> p.getFileName().toString().endsWith(suffix)).findFirst().orElse(null);
            if (file == null) {
                return -1;
            }
            List<String> lines = Files.readAllLines(file);
            String last = lines.get(lines.size() - 1);
            if (!last.contains(",") || lines.size() < 2) {
                return -1;
            }
            return Long.parseLong(last.substring(last.indexOf(',') + 1).trim());
        } catch (IOException | RuntimeException e) {
            return -1; // not yet written, or a line being written
        }
    }

    private static StormTopology counted(String scope) {
        List<List<Object>> tuples = new ArrayList<>();
        for (int n = 0; n < TUPLES; n++) {
            tuples.add(List.of(n));
        }
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("spout", FixedTuplesSpout.of(scope, new Fields("n"), tuples), 1);
        builder.setBolt("counter", new CountingBolt(), 1).shuffleGrouping("spout");
        return builder.createTopology();
    }

    /** Counts tuples in a v2 counter of its own. */
    static final class CountingBolt extends BaseRichBolt {
        private transient com.codahale.metrics.Counter counted;

        @Override
        public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
            counted = context.registerCounter(USER_COUNTER);
        }

        @Override
        public void execute(Tuple input) {
            counted.inc();
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }

    private static final class Tee extends OutputStream {
        private final OutputStream a;
        private final OutputStream b;

        Tee(OutputStream a, OutputStream b) {
            this.a = a;
            this.b = b;
        }

        @Override
        public synchronized void write(int c) throws IOException {
            a.write(c);
            b.write(c);
        }

        @Override
        public synchronized void write(byte[] bytes, int off, int len) throws IOException {
            a.write(bytes, off, len);
            b.write(bytes, off, len);
        }
    }
}
