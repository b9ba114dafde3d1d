package io.microburst.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The secret that state-changing web requests carry: new at every start, written to {@code DIR/ui-token} readable by
 * the server's user only, so that scripts of that user can read it and web pages of other sites cannot guess it.
 */
final class UiToken {
    /** The token's file in the data folder. */
    static final String FILE = "ui-token";

    private UiToken() {
    }

    static String create(Path dir) throws IOException {
        byte[] bytes = new byte[24];
        new SecureRandom().nextBytes(bytes);
        String token = HexFormat.of().formatHex(bytes);
        Path file = dir.resolve(FILE);
        Files.deleteIfExists(file);
        try {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException notPosix) {
            Files.createFile(file);
        }
        Files.writeString(file, token);
        return token;
    }
}
