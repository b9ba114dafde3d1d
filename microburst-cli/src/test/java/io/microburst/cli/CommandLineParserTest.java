package io.microburst.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CommandLineParserTest {

    @Test
    void localWithAllOptionsKeepsTheTopologyArgumentsUntouched() throws UsageException {
        Command.Local local = (Command.Local) CommandLineParser.parse("local", "--duration", "30",
                "--conf", "topology.workers=4", "--conf=topology.debug=true", "app.jar", "com.example.Main",
                "--duration", "x", "arg2");

        assertEquals(Optional.of(Duration.ofSeconds(30)), local.duration());
        assertEquals(Map.of("topology.workers", 4, "topology.debug", true), local.confOverrides());
        assertEquals(Path.of("app.jar"), local.jar());
        assertEquals("com.example.Main", local.mainClass());
        assertEquals(List.of("--duration", "x", "arg2"), local.mainArgs());
    }

    @Test
    void localWithoutDurationRunsUntilInterrupted() throws UsageException {
        Command.Local local = (Command.Local) CommandLineParser.parse("local", "app.jar", "Main");

        assertEquals(Optional.empty(), local.duration());
        assertEquals(Map.of(), local.confOverrides());
        assertEquals(List.of(), local.mainArgs());
    }

    @Test
    void doubleDashEndsOptionsSoAJarMayStartWithADash() throws UsageException {
        Command.Local local = (Command.Local) CommandLineParser.parse("local", "--", "-odd.jar", "Main");

        assertEquals(Path.of("-odd.jar"), local.jar());
    }

    @Test
    void laterConfOverridesEarlierOneForTheSameKey() throws UsageException {
        Command.Local local = (Command.Local) CommandLineParser.parse("local", "--conf", "k=1", "--conf", "k=two",
                "a.jar", "Main");

        assertEquals(Map.of("k", "two"), local.confOverrides());
    }

    @Test
    void confValueMayContainEqualsSigns() throws UsageException {
        Command.Local local = (Command.Local) CommandLineParser.parse("local", "--conf", "opts=-Da=b", "a.jar", "M");

        assertEquals(Map.of("opts", "-Da=b"), local.confOverrides());
    }

    @Test
    void demoDefaultsAndOptions() throws UsageException {
        Command.Demo defaults = (Command.Demo) CommandLineParser.parse("demo");
        Command.Demo custom = (Command.Demo) CommandLineParser.parse("demo", "--parallelism", "2", "--duration=5");

        assertEquals(new Command.Demo(Duration.ofSeconds(CommandLineParser.DEFAULT_DEMO_SECONDS), 1), defaults);
        assertEquals(new Command.Demo(Duration.ofSeconds(5), 2), custom);
    }

    @Test
    void serverDrpcFlagTurnsOnTheDrpcKey() throws UsageException {
        Command.Server plain = (Command.Server) CommandLineParser.parse("server");
        Command.Server drpc = (Command.Server) CommandLineParser.parse("server", "--drpc", "-c", "drpc.port=4000");

        assertEquals(null, plain.conf().get("microburst.server.drpc"));
        assertEquals(true, drpc.conf().get("microburst.server.drpc"));
        assertEquals(4000, ((Number) drpc.conf().get("drpc.port")).intValue());
    }

    @ParameterizedTest
    @ValueSource(strings = {"help", "--help", "-h"})
    void helpSpellings(String word) throws UsageException {
        assertInstanceOf(Command.Help.class, CommandLineParser.parse(word));
    }

    @ParameterizedTest
    @ValueSource(strings = {"local", "demo"})
    void everySubcommandHasItsOwnHelp(String sub) throws UsageException {
        Command.Help viaOption = (Command.Help) CommandLineParser.parse(sub, "--help");
        Command.Help viaHelp = (Command.Help) CommandLineParser.parse("help", sub);

        assertTrue(viaOption.text().startsWith("Usage: microburst " + sub), viaOption.text());
        assertTrue(viaOption.text().contains("--duration"), viaOption.text());
        assertEquals(viaOption, viaHelp);
    }

    @Test
    void versionAtTopAndSubcommandLevel() throws UsageException {
        Command.Version top = (Command.Version) CommandLineParser.parse("--version");
        Command.Version sub = (Command.Version) CommandLineParser.parse("local", "--version");

        assertTrue(top.text().contains("Apache Storm API 2.8.3"), top.text());
        assertEquals(top, sub);
    }

    @Test
    void confValuesAreJsonListsAndMapsLikeStormDashC() throws UsageException {
        Command.Local local = (Command.Local) CommandLineParser.parse("local",
                "-c", "topology.metrics.reporters=[{\"class\": \"org.example.Reporter\", \"report.period\": 10}]",
                "-c", "topology.kryo.register=[\"a.B\", \"c.D\"]", "-c", "topology.workers=2", "a.jar", "M");

        assertEquals(List.of(Map.of("class", "org.example.Reporter", "report.period", 10)),
                local.confOverrides().get("topology.metrics.reporters"));
        assertEquals(List.of("a.B", "c.D"), local.confOverrides().get("topology.kryo.register"));
        assertEquals(2, local.confOverrides().get("topology.workers"));
    }

    @Test
    void mistypedOptionsAndSubcommandsGetSuggestions() {
        UsageException option = assertThrows(UsageException.class,
                () -> CommandLineParser.parse("local", "--duraton", "5", "a.jar", "M"));
        UsageException sub = assertThrows(UsageException.class, () -> CommandLineParser.parse("lokal"));

        assertTrue(option.getMessage().contains("'--duraton'"), option.getMessage());
        assertTrue(option.suggestions().contains("--duration"), option.suggestions().toString());
        assertTrue(option.usage().startsWith("Usage: microburst local"), option.usage());
        assertTrue(sub.suggestions().contains("local"), sub.suggestions().toString());
    }

    @Test
    void errorsNameWhatIsWrong() {
        assertMessage("missing subcommand");
        assertMessage("Unmatched argument at index 0: 'run'", "run");
        assertMessage("local: missing APP.jar", "local");
        assertMessage("local: missing MAIN_CLASS after app.jar", "local", "app.jar");
        assertMessage("Missing required parameter for option '--duration' (SECONDS)", "local", "--duration");
        assertMessage("--duration expects a positive whole number, got 'soon'", "local", "--duration", "soon",
                "a.jar", "M");
        assertMessage("--duration expects a positive whole number, got '0'", "demo", "--duration", "0");
        assertMessage("--parallelism expects a positive whole number, got '-3'", "demo", "--parallelism", "-3");
        assertMessage("--conf expects key=value, got 'novalue'", "local", "--conf", "novalue", "a.jar", "M");
        assertMessage("--conf expects key=value, got '=3'", "local", "--conf", "=3", "a.jar", "M");
        assertMessage("--conf topology.x: not valid JSON: [1, (Unexpected End Of File position 2: EOF)",
                "local", "--conf", "topology.x=[1,", "a.jar", "M");
        assertMessage("Unknown option: '--parallelism'", "local", "--parallelism", "2", "a.jar", "M");
        assertMessage("Unknown option: '--conf'", "demo", "--conf", "a=b");
        assertMessage("demo takes no arguments, got 'extra'", "demo", "extra");
    }

    private static void assertMessage(String expected, String... args) {
        UsageException e = assertThrows(UsageException.class, () -> CommandLineParser.parse(args));
        assertEquals(expected, e.getMessage());
    }

    @Test
    void usageTextListsEverySubcommand() {
        String usage = CommandLineParser.usage();
        for (String sub : List.of("local", "demo", "bench", "help")) {
            assertTrue(usage.contains("  " + sub + " "), sub + "\n" + usage);
        }
    }

    @Test
    void blobstoreActionsTakeStormsArguments() throws UsageException {
        Command.Blob create = (Command.Blob) CommandLineParser.parse("blobstore", "create", "-f", "words.txt",
                "-a", "u:alice:rwa,o::r", "--acl", "u:bob:r", "--replication-factor", "3", "-c", "k=1", "dict");
        assertEquals(Command.BlobAction.CREATE, create.action());
        assertEquals(List.of("dict"), create.keys());
        assertEquals(Optional.of(Path.of("words.txt")), create.file());
        assertEquals(List.of("u:alice:rwa", "o::r", "u:bob:r"), create.acl());
        assertEquals(3, create.replication());
        assertEquals(Map.of("k", 1), create.conf());

        Command.Blob list = (Command.Blob) CommandLineParser.parse("blobstore", "list");
        assertEquals(List.of(), list.keys());
        Command.Blob update = (Command.Blob) CommandLineParser.parse("blobstore", "replication", "--update", "-r", "2",
                "dict");
        assertEquals(Command.BlobAction.UPDATE_REPLICATION, update.action());
        assertEquals(2, update.replication());
        assertEquals(Command.BlobAction.READ_REPLICATION,
                ((Command.Blob) CommandLineParser.parse("blobstore", "replication", "--read", "dict")).action());
    }

    @Test
    void blobstoreRefusesWhatStormWouldNotStoreNamingIt() {
        assertTrue(assertThrows(UsageException.class, () -> CommandLineParser.parse("blobstore"))
                .getMessage().startsWith("blobstore: missing action"));
        assertTrue(assertThrows(UsageException.class, () -> CommandLineParser.parse("blobstore", "create", "a/b"))
                .getMessage().contains("a/b"));
        assertTrue(assertThrows(UsageException.class,
                () -> CommandLineParser.parse("blobstore", "set-acl", "-s", "q:alice:rwa", "k"))
                .getMessage().contains("'q:alice:rwa'"));
        assertTrue(assertThrows(UsageException.class,
                () -> CommandLineParser.parse("blobstore", "replication", "--update", "k"))
                .getMessage().contains("missing --replication-factor"));
        assertTrue(assertThrows(UsageException.class,
                () -> CommandLineParser.parse("blobstore", "replication", "--read", "--update", "k"))
                .getMessage().contains("exactly one of --read and --update"));
    }

    @Test
    void setLogLevelTakesStormsSettings() throws UsageException {
        Command.SetLogLevel set = (Command.SetLogLevel) CommandLineParser.parse("set_log_level", "-l", "ROOT=debug:30",
                "-l", "com.example=WARN", "-r", "org.noisy", "my-topology");
        assertEquals(Map.of("ROOT", new Command.LevelChange("DEBUG", 30), "com.example",
                new Command.LevelChange("WARN", 0)), set.set());
        assertEquals(List.of("org.noisy"), set.remove());
        assertEquals("my-topology", set.topology());

        assertTrue(assertThrows(UsageException.class,
                () -> CommandLineParser.parse("set_log_level", "-l", "ROOT=LOUD", "t")).getMessage()
                .contains("ROOT: unknown level 'LOUD'"));
        assertTrue(assertThrows(UsageException.class,
                () -> CommandLineParser.parse("set_log_level", "-l", "ROOT=INFO:soon", "t")).getMessage()
                .contains("timeout expects a positive whole number, got 'soon'"));
        assertTrue(assertThrows(UsageException.class, () -> CommandLineParser.parse("set_log_level", "t"))
                .getMessage().contains("nothing to do"));
    }

    @Test
    void drpcClientArgumentsArePairsUnlessAFunctionIsGiven() throws UsageException {
        assertEquals(List.of(new Command.DrpcCall("f", "x"), new Command.DrpcCall("g", "y")),
                ((Command.DrpcCalls) CommandLineParser.parse("drpc-client", "f", "x", "g", "y")).calls());
        assertEquals(List.of(new Command.DrpcCall("f", "x"), new Command.DrpcCall("f", "y")),
                ((Command.DrpcCalls) CommandLineParser.parse("drpc-client", "-f", "f", "x", "y")).calls());
        assertThrows(UsageException.class, () -> CommandLineParser.parse("drpc-client", "f", "x", "g"));
    }

    @Test
    void rebalanceTakesStormsFlags() throws UsageException {
        Command.Admin admin = (Command.Admin) CommandLineParser.parse("rebalance", "-w", "0", "-n", "2", "-e",
            "split=4", "-r", "{\"split\": {\"memory.mb\": 256}}", "-t", "{\"topology.debug\": true}", "wc");
        assertEquals(java.util.OptionalInt.of(0), admin.waitSecs());
        assertEquals(Map.of("split", 4), admin.executors());
        assertEquals(java.util.OptionalInt.of(2), admin.rebalance().numWorkers());
        assertEquals(Map.of("split", Map.of("memory.mb", 256.0)), admin.rebalance().resources());
        assertEquals(Map.of("topology.debug", true), admin.rebalance().topologyConf());
        assertMessage("--topology-conf expects a JSON map, got '[1]'", "rebalance", "-t", "[1]", "wc");
        assertMessage("--num-workers expects a positive whole number, got 'x'", "rebalance", "-n", "x", "wc");
    }

    @Test
    void upgradeIsASubmitAskingForANewVersion() throws UsageException {
        Command.Submit submit = (Command.Submit) CommandLineParser.parse("upgrade", "-w", "5", "--rename", "count=tally",
            "--drop-state", "words", "wc", "app.jar", "com.example.Main", "--wait", "x");
        assertEquals(Map.of("microburst.upgrade", true, "microburst.upgrade.name", "wc", "microburst.upgrade.wait.secs", 5,
            "microburst.upgrade.rename", List.of("count=tally"), "microburst.upgrade.drop.state", List.of("words")),
            submit.conf());
        assertEquals("com.example.Main", submit.mainClass());
        assertEquals(List.of("--wait", "x"), submit.mainArgs(), "after MAIN_CLASS, the main's arguments");
        Command.Admin rollback = (Command.Admin) CommandLineParser.parse("upgrade", "--rollback", "wc");
        assertEquals(Command.AdminVerb.ROLLBACK, rollback.verb());
        assertEquals(Map.of("microburst.upgrade.rollback", true), rollback.rebalance().topologyConf());
        assertMessage("upgrade: missing MAIN_CLASS after app.jar", "upgrade", "wc", "app.jar");
        assertMessage("--rename expects OLD=NEW (component ids), got 'count'", "upgrade", "--rename", "count", "wc",
            "app.jar", "Main");
    }

    @Test
    void monitorTakesStormsFlags() throws UsageException {
        Command.Monitor monitor = (Command.Monitor) CommandLineParser.parse("monitor", "-i", "2", "-m", "split", "-s",
            "words", "-w", "transferred", "wc");
        assertEquals(new Command.Monitor(Map.of(), "wc", Optional.of("split"), "words", "transferred", 2,
            java.util.OptionalInt.empty()), monitor);
        assertMessage("--watch expects emitted or transferred, got 'acked'", "monitor", "-w", "acked", "wc");
    }
}
