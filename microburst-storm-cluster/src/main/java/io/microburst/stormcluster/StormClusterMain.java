package io.microburst.stormcluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * {@code storm-cluster up|down|status|conf}: starts, stops, describes a {@link StormCluster} whose data lives in the
 * directory given by {@code --dir} (and whose Storm home is {@code --home}). {@code conf} prints the storm.yaml lines a
 * client needs. Exit status 0 on success, 1 on failure, 2 on a usage error.
 */
public final class StormClusterMain {
    private static final String USAGE = "usage: storm-cluster up|down|status|conf  (options: --home DIR --dir DIR)";

    private StormClusterMain() {
    }

    /** Entry point. */
    public static void main(String[] args) throws Exception {
        String command = null;
        Path home = null;
        Path dir = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--home" -> home = Path.of(value(args, ++i));
                case "--dir" -> dir = Path.of(value(args, ++i));
                default -> {
                    if (command != null) {
                        usage("unexpected argument " + args[i]);
                    }
                    command = args[i];
                }
            }
        }
        if (command == null || dir == null) {
            usage(command == null ? "no command" : "no --dir");
        }
        System.exit(run(command, home, dir));
    }

    private static int run(String command, Path home, Path dir) throws Exception {
        Optional<StormCluster> existing = StormCluster.attach(dir);
        switch (command) {
            case "up" -> {
                if (home == null) {
                    usage("up needs --home");
                }
                long start = System.nanoTime();
                StormCluster cluster = StormCluster.start(home, dir, Duration.ofMinutes(2));
                System.out.printf("Storm cluster up in %.1f s: ZooKeeper, Nimbus, 1 Supervisor with %d slots %s%n",
                    (System.nanoTime() - start) / 1e9, StormCluster.SLOTS, cluster.slotPorts());
                System.out.println("data and logs: " + cluster.dataDir());
                System.out.println("client configuration (storm-cluster conf):");
                System.out.print(cluster.clientYaml());
                return 0;
            }
            case "down" -> {
                if (existing.isEmpty()) {
                    System.out.println("no Storm cluster state in " + dir);
                    return 0;
                }
                existing.get().stop();
                System.out.println("Storm cluster stopped; no process of it is left");
                return 0;
            }
            case "status" -> {
                if (existing.isEmpty()) {
                    System.out.println("no Storm cluster state in " + dir);
                    return 1;
                }
                boolean running = true;
                for (Map.Entry<String, String> e : existing.get().status().entrySet()) {
                    System.out.println(e.getKey() + ": " + e.getValue());
                    running &= !e.getValue().contains("not");
                }
                return running ? 0 : 1;
            }
            case "conf" -> {
                if (existing.isEmpty()) {
                    System.err.println("no Storm cluster state in " + dir + "; run storm-cluster up first");
                    return 1;
                }
                System.out.print(existing.get().clientYaml());
                return 0;
            }
            default -> {
                usage("unknown command " + command);
                return 2;
            }
        }
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            usage(args[i - 1] + " needs a value");
        }
        return args[i];
    }

    private static void usage(String problem) {
        System.err.println("storm-cluster: " + problem);
        System.err.println(USAGE);
        System.exit(2);
    }
}
