package io.microburst.dist;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;

/**
 * Packs one package of the compiled test classes into a jar, as a user's build packs a topology: only the topology's
 * own classes, storm-client being on the installation's class path. Threading: any thread.
 */
final class TopologyJars {
    private TopologyJars() {
    }

    /** Writes {@code jar} with the classes of {@code packageName} found under {@code classes}. */
    static Path pack(Path classes, String packageName, Path jar) throws IOException {
        Path folder = classes.resolve(packageName.replace('.', '/'));
        List<Path> files;
        try (Stream<Path> found = Files.list(folder)) {
            files = found.filter(f -> f.getFileName().toString().endsWith(".class")).sorted().toList();
        }
        if (files.isEmpty()) {
            throw new IOException("no classes of " + packageName + " in " + classes);
        }
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file, manifest)) {
            for (Path f : files) {
                out.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
                Files.copy(f, out);
                out.closeEntry();
            }
        }
        return jar;
    }
}
