package io.microburst.cli.testsupport;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/** Compiles Java sources against the test class path and packs the classes into a jar, as a user's build would. */
public final class TopologyJarBuilder {
    private TopologyJarBuilder() {
    }

    /**
     * @param sources fully qualified class name to source text
     * @param workDir a scratch directory; the jar is written inside it
     * @return the jar
     */
    public static Path build(Map<String, String> sources, Path workDir) throws IOException {
        return build(sources, Map.of(), workDir);
    }

    /**
     * @param sources fully qualified class name to source text
     * @param files other files to pack, path inside the jar (such as {@code resources/split.py}) to content
     * @param workDir a scratch directory; the jar is written inside it
     * @return the jar
     */
    public static Path build(Map<String, String> sources, Map<String, byte[]> files, Path workDir) throws IOException {
        return build(sources, files, workDir, TestClassPath.get());
    }

    /**
     * As {@link #build(Map, Map, Path)}, compiled against {@code classPath} (for example with storm-server's jar
     * ahead of microburst-localcluster, as a user's build against storm-server compiles).
     */
    public static Path build(Map<String, String> sources, Map<String, byte[]> files, Path workDir, String classPath)
            throws IOException {
        Path sourceDir = Files.createDirectories(workDir.resolve("src"));
        Path classDir = Files.createDirectories(workDir.resolve("classes"));
        List<Path> javaFiles = new ArrayList<>();
        for (Map.Entry<String, String> source : sources.entrySet()) {
            Path file = sourceDir.resolve(source.getKey().replace('.', '/') + ".java");
            Files.createDirectories(file.getParent());
            Files.writeString(file, source.getValue(), StandardCharsets.UTF_8);
            javaFiles.add(file);
        }
        compile(javaFiles, classDir, classPath);
        for (Map.Entry<String, byte[]> file : files.entrySet()) {
            Path target = classDir.resolve(file.getKey());
            Files.createDirectories(target.getParent());
            Files.write(target, file.getValue());
        }
        Path jar = workDir.resolve("topology.jar");
        writeJar(classDir, jar);
        return jar;
    }

    private static void compile(List<Path> files, Path classDir, String classPath) throws IOException {
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        if (compiler == null) {
            throw new IllegalStateException("no Java compiler in this runtime (a JRE, not a JDK?)");
        }
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager fileManager = compiler.getStandardFileManager(diagnostics, null,
                StandardCharsets.UTF_8)) {
            List<String> options = List.of("-classpath", classPath, "-d", classDir.toString(),
                    "--release", "17", "-proc:none");
            boolean ok = compiler.getTask(null, fileManager, diagnostics, options, null,
                    fileManager.getJavaFileObjectsFromPaths(files)).call();
            if (!ok) {
                throw new IllegalStateException("compiling the test topology failed: " + diagnostics.getDiagnostics());
            }
        }
    }

    /** Writes a directory entry before each directory's files, as the jar tool and Maven's jar plugin do. */
    private static void writeJar(Path classDir, Path jar) throws IOException {
        try (OutputStream out = Files.newOutputStream(jar);
             JarOutputStream jarOut = new JarOutputStream(out);
             Stream<Path> entries = Files.walk(classDir)) {
            for (Path file : (Iterable<Path>) entries.filter(p -> !p.equals(classDir)).sorted()::iterator) {
                String name = classDir.relativize(file).toString().replace('\\', '/');
                if (Files.isDirectory(file)) {
                    jarOut.putNextEntry(new JarEntry(name + "/"));
                } else {
                    jarOut.putNextEntry(new JarEntry(name));
                    Files.copy(file, jarOut);
                }
                jarOut.closeEntry();
            }
        }
    }
}
