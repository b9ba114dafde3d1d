package io.microburst.dist;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * storm-starter's topology jar, built as storm-starter's own build packs it: its classes (compiled against the
 * installation's {@code lib/}, so storm-client, which storm-starter's POM marks provided, is not inside) and its
 * multi-lang folder, scripts and Storm's {@code storm.py}, under the jar's top-level {@code resources/}, with the
 * folder entries a jar built by Maven has (the server finds a topology's {@code resources/} through its class loader,
 * which needs the folder's own entry). The sources
 * are those of Storm's source release that the build unpacked (Maven Central publishes no storm-starter jar of Storm
 * 2). Threading: the caller's thread.
 */
final class StormStarterJar {
    /** Storm's examples, as the test names them. */
    static final String EXCLAMATION = "org.apache.storm.starter.ExclamationTopology";
    static final String WORD_COUNT = "org.apache.storm.starter.WordCountTopology";

    private StormStarterJar() {
    }

    /**
     * Compiles every source under {@code starter}/src/jvm against the jars in {@code lib} and writes the jar into
     * {@code work}.
     */
    static Path build(Path starter, Path lib, Path work) throws IOException {
        Path classes = Files.createDirectories(work.resolve("classes"));
        compile(files(starter.resolve("src/jvm"), ".java"), classPath(lib), classes);
        Path jar = work.resolve("storm-starter.jar");
        Path multilang = starter.resolve("multilang/resources");
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file, manifest)) {
            Set<String> folders = new HashSet<>();
            for (Path f : files(classes, ".class")) {
                add(out, folders, entry(classes, f), f);
            }
            for (Path f : files(multilang, "")) {
                add(out, folders, "resources/" + entry(multilang, f), f);
            }
        }
        return jar;
    }

    private static void compile(List<Path> sources, String classPath, Path classes) throws IOException {
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        if (compiler == null) {
            throw new IOException("the test runs on a JRE without a compiler: run it on a JDK");
        }
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager files = compiler.getStandardFileManager(diagnostics, Locale.ROOT, null)) {
            List<String> options = List.of("-proc:none", "-nowarn", "-cp", classPath, "-d", classes.toString());
            boolean ok = compiler.getTask(null, files, diagnostics, options, null,
                files.getJavaFileObjectsFromPaths(sources)).call();
            if (!ok) {
                throw new IOException("storm-starter does not compile against the installation's lib/: "
                    + diagnostics.getDiagnostics());
            }
        }
    }

    private static String classPath(Path lib) throws IOException {
        List<String> jars = new ArrayList<>();
        for (Path jar : files(lib, ".jar")) {
            jars.add(jar.toString());
        }
        return String.join(File.pathSeparator, jars);
    }

    private static List<Path> files(Path folder, String suffix) throws IOException {
        if (!Files.isDirectory(folder)) {
            throw new IOException("no " + folder + ": the build unpacks storm-starter there (mvn verify)");
        }
        try (Stream<Path> found = Files.walk(folder)) {
            return found.filter(Files::isRegularFile).filter(f -> f.getFileName().toString().endsWith(suffix))
                .sorted().toList();
        }
    }

    private static String entry(Path root, Path file) {
        return root.relativize(file).toString().replace(File.separatorChar, '/');
    }

    /** Adds the file, after an entry for each folder above it not yet added, as Maven's jar plugin writes them. */
    private static void add(JarOutputStream out, Set<String> folders, String name, Path file) throws IOException {
        for (int slash = name.indexOf('/'); slash >= 0; slash = name.indexOf('/', slash + 1)) {
            String folder = name.substring(0, slash + 1);
            if (folders.add(folder)) {
                out.putNextEntry(new JarEntry(folder));
                out.closeEntry();
            }
        }
        out.putNextEntry(new JarEntry(name));
        Files.copy(file, out);
        out.closeEntry();
    }
}
