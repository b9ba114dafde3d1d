package io.microburst.state;

import java.nio.file.Path;

/** Opens the store in a directory in a process of its own and prints what happened (for the locking test). */
public final class OpenStoreMain {
    private OpenStoreMain() {
    }

    public static void main(String[] args) {
        try {
            RocksDbStore.open(Path.of(args[0]));
            System.out.println("opened");
        } catch (StateStoreException e) {
            System.out.println(e.getMessage());
            System.exit(3);
        }
    }
}
