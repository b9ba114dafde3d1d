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

    @Test
    void errorsNameWhatIsWrong() {
        assertMessage("missing subcommand");
        assertMessage("unknown subcommand 'run'", "run");
        assertMessage("local: missing APP.jar", "local");
        assertMessage("local: missing MAIN_CLASS after app.jar", "local", "app.jar");
        assertMessage("--duration expects a value", "local", "--duration");
        assertMessage("--duration expects a positive whole number, got 'soon'", "local", "--duration", "soon",
                "a.jar", "M");
        assertMessage("--duration expects a positive whole number, got '0'", "demo", "--duration", "0");
        assertMessage("--parallelism expects a positive whole number, got '-3'", "demo", "--parallelism", "-3");
        assertMessage("--conf expects key=value, got 'novalue'", "local", "--conf", "novalue", "a.jar", "M");
        assertMessage("--conf expects key=value, got '=3'", "local", "--conf", "=3", "a.jar", "M");
        assertMessage("unknown option '--parallelism' for local", "local", "--parallelism", "2", "a.jar", "M");
        assertMessage("unknown option '--conf' for demo", "demo", "--conf", "a=b");
        assertMessage("demo takes no arguments, got 'extra'", "demo", "extra");
    }

    private static void assertMessage(String expected, String... args) {
        UsageException e = assertThrows(UsageException.class, () -> CommandLineParser.parse(args));
        assertEquals(expected, e.getMessage());
    }

    @Test
    void usageTextListsEverySubcommand() {
        for (String sub : List.of("local", "demo", "bench", "help")) {
            assertTrue(Usage.TEXT.contains("microburst " + sub), sub);
        }
    }
}
