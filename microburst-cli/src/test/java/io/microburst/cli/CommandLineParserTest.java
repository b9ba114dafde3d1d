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
}
