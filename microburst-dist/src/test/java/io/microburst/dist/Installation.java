package io.microburst.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The release archive unpacked as an operator unpacks it ({@code tar -xzf} into an empty folder), and its
 * {@code bin/microburst} run as an operator runs it: with an environment holding only a PATH (Java's {@code bin/} and
 * a folder with the shell the script needs, and Python when the machine has it, for multi-lang topologies; so no Maven)
 * and an empty HOME (so nothing from a local Maven repository).
 * Every process it starts is stopped by {@link #close()}. Threading: the test's thread.
 */
final class Installation implements AutoCloseable {
    /**
     * How long one command may take: a JVM start on a busy machine, plus the call (a submit of storm-starter's jar
     * was seen to take 70 s on two cores under a load of 60).
     */
    static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(180);
    /** The programs the launcher script runs besides Java (its interpreter, and readlink to find Java's folder). */
    private static final List<String> TOOLS = List.of("bash", "readlink");
    /** What multi-lang bolts such as storm-starter's run their scripts with, found through the server's PATH. */
    private static final String PYTHON = "python3";

    private final Path home;
    private final Path scratch;
    private final Path tools;
    private final boolean python;
    private final Map<String, String> environment;
    private final List<Process> started = new ArrayList<>();
    private int commands;

    private Installation(Path home, Path scratch, Path tools, Map<String, String> environment) {
        this.home = home;
        this.scratch = scratch;
        this.tools = tools;
        this.python = Files.exists(tools.resolve(PYTHON), LinkOption.NOFOLLOW_LINKS);
        this.environment = environment;
    }

    /**
     * Unpacks {@code archive} into {@code dir}/install (with the machine's tar) and prepares an environment whose PATH
     * has {@code javaBin} (or no Java, when null) and the shell tools alone.
     */
    static Installation unpack(Path archive, Path dir, Path javaBin) throws IOException, InterruptedException {
        assertTrue(Files.isRegularFile(archive), "the build made no release archive at " + archive);
        Path install = Files.createDirectories(dir.resolve("install"));
        Process tar = new ProcessBuilder("tar", "-xzf", archive.toString(), "-C", install.toString())
            .redirectErrorStream(true).start();
        String tarOutput = new String(tar.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(tar.waitFor(COMMAND_TIMEOUT.toSeconds(), TimeUnit.SECONDS), "tar did not finish");
        assertEquals(0, tar.exitValue(), tarOutput);
        List<Path> top;
        try (Stream<Path> entries = Files.list(install)) {
            top = entries.toList();
        }
        assertEquals(1, top.size(), "one top folder in the archive: " + top);
        Path scratch = Files.createDirectories(dir.resolve("scratch"));
        Path tools = Files.createDirectories(dir.resolve("tools"));
        return new Installation(top.get(0), scratch, tools, environment(javaBin, tools, dir));
    }

    private static Map<String, String> environment(Path javaBin, Path tools, Path dir) throws IOException {
        for (String tool : TOOLS) {
            Path link = tools.resolve(tool);
            if (!Files.exists(link, LinkOption.NOFOLLOW_LINKS)) {
                Files.createSymbolicLink(link, onPath(tool));
            }
        }
        Path python = tools.resolve(PYTHON);
        Path interpreter = pythonInterpreter();
        if (interpreter != null && !Files.exists(python, LinkOption.NOFOLLOW_LINKS)) {
            Files.createSymbolicLink(python, interpreter);
        }
        Map<String, String> env = new HashMap<>();
        env.put("PATH", (javaBin == null ? "" : javaBin + File.pathSeparator) + tools);
        env.put("HOME", Files.createDirectories(dir.resolve("home")).toString());
        return env;
    }

    /** The program named {@code tool} on this test's own PATH. */
    private static Path onPath(String tool) {
        for (String entry : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(entry, tool);
            if (!entry.isEmpty() && Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return fail("no " + tool + " on the PATH");
    }

    /**
     * The interpreter {@code python3} on this test's PATH runs (not a launcher script such as a version manager's
     * shim, which would need more of the PATH), or null when there is none.
     */
    private static Path pythonInterpreter() throws IOException {
        try {
            Process process = new ProcessBuilder(PYTHON, "-c", "import sys; print(sys.executable)")
                .redirectErrorStream(true).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!process.waitFor(COMMAND_TIMEOUT.toSeconds(), TimeUnit.SECONDS) || process.exitValue() != 0) {
                return null;
            }
            Path interpreter = Path.of(out);
            return interpreter.isAbsolute() && Files.isExecutable(interpreter) ? interpreter : null;
        } catch (IOException noPython) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while looking for " + PYTHON, e);
        }
    }

    /** Whether the PATH commands run with has {@code python3}, for multi-lang topologies. */
    boolean hasPython() {
        return python;
    }

    /** The installation folder ({@code microburst-VERSION}). */
    Path home() {
        return home;
    }

    /** The environment commands run with: PATH and HOME only. */
    Map<String, String> environment() {
        return Map.copyOf(environment);
    }

    /** A PATH with the tools but no Java. */
    String pathWithoutJava() {
        return tools.toString();
    }

    /** Runs {@code bin/microburst ARGS} to its end, with the environment and {@code extra} variables. */
    Result run(Map<String, String> extra, String... args) throws IOException, InterruptedException {
        Launched command = launch(extra, args);
        if (!command.process().waitFor(COMMAND_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            command.process().destroyForcibly();
            fail("microburst " + String.join(" ", args) + " did not end within " + COMMAND_TIMEOUT + ": "
                + command.output());
        }
        return new Result(command.process().exitValue(), command.stdout(), command.stderr());
    }

    Result run(String... args) throws IOException, InterruptedException {
        return run(Map.of(), args);
    }

    /** Starts {@code bin/microburst ARGS}, to be stopped by the caller or by {@link #close()}. */
    Launched launch(Map<String, String> extra, String... args) throws IOException {
        int n = ++commands;
        List<String> command = new ArrayList<>();
        command.add(home.resolve("bin").resolve("microburst").toString());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(scratch.toFile());
        builder.environment().clear();
        builder.environment().putAll(environment);
        builder.environment().putAll(extra);
        Path out = scratch.resolve(n + "-" + args[0] + ".out");
        Path err = scratch.resolve(n + "-" + args[0] + ".err");
        Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        started.add(process);
        return new Launched(process, out, err);
    }

    /** Kills whatever this installation started and is still running. */
    @Override
    public void close() {
        for (Process process : started) {
            if (process.isAlive()) {
                process.destroyForcibly();
                try {
                    process.waitFor(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** A finished command: its exit code and output. */
    record Result(int exit, String stdout, String stderr) {
        /** Fails unless the command exited 0. */
        Result ok(String what) {
            assertEquals(0, exit, what + " failed; stdout: " + stdout + "; stderr: " + stderr);
            return this;
        }
    }

    /** A started command, its output going to files. */
    record Launched(Process process, Path out, Path err) {
        String stdout() throws IOException {
            return Files.readString(out);
        }

        String stderr() throws IOException {
            return Files.readString(err);
        }

        String output() throws IOException {
            return "stdout: " + stdout() + "; stderr: " + stderr();
        }
    }
}
