package io.microburst.state;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;

/**
 * Opens the store in a directory in a process of its own and prints what happened (for the locking test); with a
 * second argument {@code --wait}, then waits until its standard input ends (for a test that kills it).
 */
public final class OpenStoreMain {
    private OpenStoreMain() {
    }

    public static void main(String[] args) throws IOException {
        try {
            RocksDbStore.open(Path.of(args[0]));
            System.out.println("opened");
            if (args.length > 1 && args[1].equals("--wait")) {
                System.in.transferTo(OutputStream.nullOutputStream());
            }
        } catch (StateStoreException e) {
            System.out.println(e.getMessage());
            System.exit(3);
        }
    }
}
