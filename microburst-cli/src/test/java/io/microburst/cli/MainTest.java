package io.microburst.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MainTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void helpPrintsUsageAndSucceeds() {
        assertEquals(Main.OK, run("help"));
        String text = out.toString(StandardCharsets.UTF_8);
        assertTrue(text.startsWith("Usage: microburst"), text);
        assertTrue(text.contains("  local "), text);
    }

    @Test
    void usageErrorExitsWithTwoAndExplains() {
        assertEquals(Main.USAGE, run("local", "--duration", "x", "a.jar", "M"));
        String text = err.toString(StandardCharsets.UTF_8);
        assertTrue(text.startsWith("microburst: --duration expects a positive whole number"), text);
        assertTrue(text.contains("Usage:"), text);
    }

    @Test
    void missingJarIsAUsageError(@TempDir Path dir) {
        assertEquals(Main.USAGE, run("local", dir.resolve("absent.jar").toString(), "Main"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("not a readable jar file"));
    }

    @Test
    void unknownMainClassIsAUsageError(@TempDir Path dir) throws Exception {
        Path emptyJar = dir.resolve("empty.jar");
        try (var jar = new java.util.jar.JarOutputStream(Files.newOutputStream(emptyJar))) {
            jar.putNextEntry(new java.util.jar.JarEntry("README"));
            jar.closeEntry();
        }
        assertEquals(Main.USAGE, run("local", emptyJar.toString(), "com.example.Absent"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("class com.example.Absent not found"));
    }

    @Test
    void aMistypedOptionGetsASuggestionTheUsageLineAndWhereToReadMoreNotTheWholeHelp() {
        assertEquals(Main.USAGE, run("kill", "--wiat", "3", "exclaim"));
        String text = err.toString(StandardCharsets.UTF_8);
        String[] lines = text.split("\n");
        assertTrue(lines[0].startsWith("microburst: Unknown option") && lines[0].contains("'--wiat'"), text);
        assertEquals("Did you mean: --wait?", lines[1], text);
        assertTrue(lines[2].startsWith("Usage: microburst kill "), text);
        assertEquals("Run 'microburst kill --help' for more.", lines[lines.length - 1], text);
        assertTrue(lines.length <= 6, "a few lines, not the help: " + text);
    }

    @Test
    void aMistypedVerbGetsASuggestion() {
        assertEquals(Main.USAGE, run("lsit"));
        String text = err.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("\nDid you mean: list?\n"), text);
        assertTrue(text.endsWith("Run 'microburst --help' for more.\n"), text);
    }

    @Test
    void versionVerbAndOptionAgreeAndNameTheBuildsVersion() {
        assertEquals(Main.OK, run("version"));
        String verb = out.toString(StandardCharsets.UTF_8);
        out.reset();
        assertEquals(Main.OK, run("--version"));
        assertEquals(verb, out.toString(StandardCharsets.UTF_8));
        out.reset();
        assertEquals(Main.OK, run("kill", "--version"));
        assertEquals(verb, out.toString(StandardCharsets.UTF_8));
        String built = System.getProperty("microburst.test.project.version");
        assertTrue(built != null && verb.contains("\nmicroburst " + built + "\n"), built + " in " + verb);
    }

    @Test
    void helpSaysTheServerServesDrpcWithTheFlag() {
        assertEquals(Main.OK, run("drpc-client", "--help"));
        String text = out.toString(StandardCharsets.UTF_8).replaceAll("\\s+", " ");
        assertTrue(text.contains("microburst server --drpc"), text);
        assertTrue(!text.contains("does not serve DRPC"), text);
    }
}
