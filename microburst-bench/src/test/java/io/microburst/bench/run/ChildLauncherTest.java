package io.microburst.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.bench.RunOne;
import io.microburst.bench.result.RunResult;
import io.microburst.bench.result.RunStatus;
import io.microburst.bench.runtime.RuntimeId;
import io.microburst.bench.workload.WorkloadCatalog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChildLauncherTest {
    @TempDir
    Path logs;

    private ChildLauncher launcher(String classPath) {
        return new ChildLauncher(List.of("-Xmx256m"), 0, 0.3, 20, logs, classPath);
    }

    @Test
    void commandIsAnArgumentListWithTheHeapFlagsAndTheChildEntryPoint() {
        RunSpec spec = new RunSpec(WorkloadCatalog.byName("const-null").orElseThrow(), RuntimeId.STORM_TUNED, 2);
        List<String> command = launcher("a.jar:lib/*").command(spec, Path.of("/scratch"));
        assertTrue(command.get(0).endsWith("java"), command.get(0));
        assertEquals("-Xmx256m", command.get(1));
        int main = command.indexOf(RunOne.class.getName());
        assertEquals("a.jar:lib/*", command.get(main - 1));
        assertTrue(command.contains("-Djava.io.tmpdir=" + Path.of("/scratch")), command.toString());
        assertEquals(List.of("const-null", "storm-tuned", "2", "0.0", "0.3", "20"), command.subList(main + 1, command.size()));
    }

    @Test
    void aChildJvmMeasuresACeilingAndReportsIt() throws Exception {
        RunSpec spec = new RunSpec(WorkloadCatalog.byName("const-null").orElseThrow(), RuntimeId.CEILING_LOOP, 1);
        RunResult result = launcher(System.getProperty("java.class.path")).launch(spec);
        assertEquals(RunStatus.OK, result.status(), () -> result.error() + "\n" + read(result.log()));
        assertTrue(result.delivered() > 0);
        assertTrue(result.threads() > 0);
        assertTrue(Files.exists(Path.of(result.log())));
    }

    @Test
    void aChildThatCannotStartIsAFailureNotAnException() throws Exception {
        RunSpec spec = new RunSpec(WorkloadCatalog.byName("const-null").orElseThrow(), RuntimeId.CEILING_LOOP, 1);
        RunResult result = launcher(logs.resolve("missing.jar").toString()).launch(spec);
        assertEquals(RunStatus.FAILED, result.status());
        assertTrue(result.error().contains("without a result"), result.error());
    }

    @Test
    void whatAHaltedChildLeavesInItsTemporaryDirectoryIsDeleted() throws Exception {
        RunSpec spec = new RunSpec(WorkloadCatalog.byName("const-null").orElseThrow(), RuntimeId.CEILING_LOOP, 1);
        ChildLauncher launcher = new ChildLauncher(List.of("-Xmx64m"), 0, 0.3, 20, logs,
            System.getProperty("java.class.path"), LeavesATempFile.class.getName());
        RunResult result = launcher.launch(spec);
        List<String> lines = Files.readAllLines(Path.of(result.log()));
        String file = lines.stream().filter(l -> l.startsWith("file ")).findFirst().orElseThrow(() -> new AssertionError(
            "the child did not report its file: " + lines)).substring(5);
        String rocksDbDir = lines.stream().filter(l -> l.startsWith("rocksdb ")).findFirst().orElseThrow().substring(8);
        Path scratch = Path.of(file).getParent();
        assertTrue(scratch.getFileName().toString().startsWith("microburst-bench-child-"), file);
        assertEquals(scratch.toString(), rocksDbDir);
        assertFalse(Files.exists(Path.of(file)), file + " is left behind");
        assertFalse(Files.exists(scratch), scratch + " is left behind");
    }

    /** A child that leaves a file in its temporary directory and ends the way RunOne does, by halting. */
    public static final class LeavesATempFile {
        public static void main(String[] args) throws Exception {
            java.io.File f = java.io.File.createTempFile("leftover", ".so");
            f.deleteOnExit(); // skipped by halt, as RocksDB's is
            System.out.println("file " + f.getAbsolutePath());
            System.out.println("rocksdb " + System.getenv("ROCKSDB_SHAREDLIB_DIR"));
            System.out.flush();
            Runtime.getRuntime().halt(0);
        }
    }

    private static String read(String file) {
        try {
            return file == null ? "" : Files.readString(Path.of(file));
        } catch (Exception e) {
            return e.toString();
        }
    }
}
