package io.microburst.cli.e2e;

import java.util.Map;

/**
 * Source of a topology whose main registers a JVM shutdown hook that needs a class of the jar not loaded before it
 * runs, as Hadoop's file system cache does (its hook closes every open file system, loading helper classes as it
 * goes). The hook writes {@code hook ran} to the file named by the first argument.
 */
final class ShutdownHookTopologySource {
    static final String MAIN_CLASS = "example.hook.HookTopology";

    private static final String SOURCE = """
            package example.hook;

            import java.io.IOException;
            import java.nio.charset.StandardCharsets;
            import java.nio.file.Files;
            import java.nio.file.Path;
            import org.apache.storm.Config;
            import org.apache.storm.StormSubmitter;
            import org.apache.storm.testing.TestWordCounter;
            import org.apache.storm.testing.TestWordSpout;
            import org.apache.storm.topology.TopologyBuilder;

            public class HookTopology {
                public static void main(String[] args) throws Exception {
                    Path file = Path.of(args[0]);
                    Runtime.getRuntime().addShutdownHook(new Thread(() -> AtExit.write(file), "user-hook"));
                    TopologyBuilder builder = new TopologyBuilder();
                    builder.setSpout("words", new TestWordSpout(), 1);
                    builder.setBolt("count", new TestWordCounter(), 1).shuffleGrouping("words");
                    StormSubmitter.submitTopology("hook", new Config(), builder.createTopology());
                }

                /** Loaded only when the hook runs. */
                static final class AtExit {
                    static void write(Path file) {
                        try {
                            Files.writeString(file, "hook ran", StandardCharsets.UTF_8);
                        } catch (IOException e) {
                            throw new RuntimeException(e);
                        }
                    }
                }
            }
            """;

    private ShutdownHookTopologySource() {
    }

    static Map<String, String> sources() {
        return Map.of(MAIN_CLASS, SOURCE);
    }
}
