package io.microburst.bench.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.bench.run.ChildLauncher;
import io.microburst.bench.run.RunSpec;
import io.microburst.bench.workload.WorkloadCatalog;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FlinkRuntimeTest {
    @TempDir
    Path target;

    @AfterEach
    void forgetTheTarget() {
        System.clearProperty(FlinkRuntime.LIB_PROPERTY);
    }

    @Test
    void aBuiltModuleGivesFlinkRunsItsOwnClassPathAndNoOtherRun() throws Exception {
        Files.createDirectories(target.resolve("lib"));
        Path jar = Files.createFile(target.resolve("microburst-bench-flink-0.1.0-SNAPSHOT.jar"));
        System.setProperty(FlinkRuntime.LIB_PROPERTY, target.toString());
        String flink = jar + File.pathSeparator + target.resolve("lib") + File.separator + "*";
        assertEquals(Optional.of(flink), FlinkRuntime.classPath());

        ChildLauncher launcher = new ChildLauncher(List.of("-Xmx256m"), 0, 1, 20, target.resolve("logs"), "bench.jar");
        List<String> onFlink = launcher.command(new RunSpec(WorkloadCatalog.byName("scoring-p1").orElseThrow(),
            RuntimeId.FLINK, 1), target);
        assertEquals(flink, onFlink.get(onFlink.indexOf("-cp") + 1));
        List<String> onStorm = launcher.command(new RunSpec(WorkloadCatalog.byName("scoring-p1").orElseThrow(),
            RuntimeId.STORM, 1), target);
        assertEquals("bench.jar", onStorm.get(onStorm.indexOf("-cp") + 1));
    }

    @Test
    void withoutTheModulesJarThereIsNoFlinkClassPath() throws Exception {
        Files.createDirectories(target.resolve("lib"));
        System.setProperty(FlinkRuntime.LIB_PROPERTY, target.toString());
        assertTrue(FlinkRuntime.classPath().isEmpty());
        System.setProperty(FlinkRuntime.LIB_PROPERTY, target.resolve("absent").toString());
        assertTrue(FlinkRuntime.classPath().isEmpty());
    }
}
