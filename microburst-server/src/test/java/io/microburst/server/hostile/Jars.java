package io.microburst.server.hostile;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/** The files the campaign uploads as topology jars: a good one, and the hostile kinds. Stateless. */
final class Jars {
    private Jars() {
    }

    /** A valid jar with a manifest and no classes: the topology's classes come from the server's class path. */
    static byte[] good() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().putValue("Manifest-Version", "1.0");
        new JarOutputStream(bytes, manifest).close();
        return bytes.toByteArray();
    }

    /** Bytes that are no zip at all. */
    static byte[] notAJar() {
        return "#!/bin/sh\necho this is a shell script, not a jar\n".repeat(20).getBytes(StandardCharsets.UTF_8);
    }

    /** A few hundred kilobytes that expand to {@code expandedBytes} of zeros in {@code resources/bomb.txt}. */
    static byte[] bomb(long expandedBytes) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
            zip.setLevel(9);
            zip.putNextEntry(new ZipEntry("resources/bomb.txt"));
            byte[] zeros = new byte[1 << 20];
            for (long left = expandedBytes; left > 0; left -= zeros.length) {
                zip.write(zeros, 0, (int) Math.min(zeros.length, left));
            }
            zip.closeEntry();
        }
        return bytes.toByteArray();
    }

    /** A jar with one entry named {@code name} (a zip slip when the name climbs out: {@code ../x}, {@code /x}). */
    static byte[] withEntry(String name) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
            zip.putNextEntry(new ZipEntry(name));
            zip.write("escaped\n".getBytes(StandardCharsets.UTF_8));
            zip.closeEntry();
        }
        return bytes.toByteArray();
    }
}
