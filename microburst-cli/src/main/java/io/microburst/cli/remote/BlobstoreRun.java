package io.microburst.cli.remote;

import io.microburst.cli.Command;
import io.microburst.cli.CommandFailedException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.blobstore.AtomicOutputStream;
import org.apache.storm.blobstore.BlobStoreAclHandler;
import org.apache.storm.blobstore.ClientBlobStore;
import org.apache.storm.blobstore.InputStreamWithMeta;
import org.apache.storm.blobstore.NimbusBlobStore;
import org.apache.storm.generated.AccessControl;
import org.apache.storm.generated.AuthorizationException;
import org.apache.storm.generated.KeyAlreadyExistsException;
import org.apache.storm.generated.KeyNotFoundException;
import org.apache.storm.generated.ReadableBlobMeta;
import org.apache.storm.generated.SettableBlobMeta;
import org.apache.storm.utils.Utils;

/**
 * {@code microburst blobstore ACTION}: the {@code storm blobstore} actions through storm-client's {@code ClientBlobStore}
 * ({@code client.blobstore.class}, by default {@code NimbusBlobStore}, which talks to the configured Nimbus), with the
 * {@code -c} overrides applied. What Storm's command logs as its result ({@code KEY VERSION [ACL]} per blob, the
 * replication factor...) is printed on stdout as the bare message; {@code cat} writes the content alone.
 */
public final class BlobstoreRun {
    private final Command.Blob command;
    private final PrintStream out;
    private final PrintStream err;
    private final InputStream in;

    public BlobstoreRun(Command.Blob command, PrintStream out, PrintStream err, InputStream in) {
        this.command = command;
        this.out = out;
        this.err = err;
        this.in = in;
    }

    public int run() throws Exception {
        Map<String, Object> conf = AdminRun.clientConf(command.conf());
        if (String.valueOf(conf.get(Config.CLIENT_BLOBSTORE)).equals(NimbusBlobStore.class.getName())) {
            NimbusCall.requireListening(conf); // the blobs are Nimbus's: fail at once when nothing listens there
        }
        try (ClientBlobStore store = Utils.getClientBlobStore(conf)) {
            call(store);
        } catch (KeyNotFoundException e) {
            throw new CommandFailedException("blobstore " + verb() + ": no blob with key '" + e.get_msg() + "'", e);
        } catch (KeyAlreadyExistsException e) {
            throw new CommandFailedException("blobstore " + verb() + ": a blob with key '" + e.get_msg()
                + "' already exists", e);
        } catch (AuthorizationException e) {
            throw new CommandFailedException("blobstore " + verb() + " " + String.join(" ", command.keys())
                + ": not authorized: " + e.get_msg(), e);
        } catch (RuntimeException e) {
            if (NimbusCall.isUnreachable(e)) {
                throw NimbusCall.unreachable(conf, e);
            }
            throw e;
        }
        return 0;
    }

    /** The action as the user typed it. */
    private String verb() {
        return switch (command.action()) {
            case READ_REPLICATION, UPDATE_REPLICATION -> "replication";
            default -> command.action().name().toLowerCase(Locale.ROOT).replace('_', '-');
        };
    }

    private void call(ClientBlobStore store) throws Exception {
        List<String> keys = command.keys();
        switch (command.action()) {
            case LIST -> list(store, keys);
            case CAT -> cat(store, keys.get(0));
            case CREATE -> {
                List<AccessControl> acl = acl(command.acl());
                SettableBlobMeta meta = new SettableBlobMeta(acl);
                meta.set_replication_factor(command.replication());
                out.println("Creating " + keys.get(0) + " with ACL " + describe(acl));
                try (InputStream content = input()) {
                    write(store.createBlob(keys.get(0), meta), content);
                }
                out.println("Successfully created " + keys.get(0));
            }
            case UPDATE -> {
                try (InputStream content = input()) {
                    write(store.updateBlob(keys.get(0)), content);
                }
                out.println("Successfully updated " + keys.get(0));
            }
            case DELETE -> {
                for (String key : keys) {
                    store.deleteBlob(key);
                    out.println("deleted " + key);
                }
            }
            case SET_ACL -> {
                String key = keys.get(0);
                List<AccessControl> acl = command.acl().isEmpty()
                    ? store.getBlobMeta(key).get_settable().get_acl() : acl(command.acl());
                out.println("Setting ACL for " + key + " to " + describe(acl));
                store.setBlobMeta(key, new SettableBlobMeta(acl));
            }
            case READ_REPLICATION -> out.println("Current replication factor " + store.getBlobReplication(keys.get(0)));
            case UPDATE_REPLICATION -> out.println("Replication factor is set to "
                + store.updateBlobReplication(keys.get(0), command.replication()));
            default -> throw new IllegalStateException("unknown action " + command.action());
        }
    }

    /** Storm's listing: a line per readable blob; a key named but missing or unreadable is reported and skipped. */
    private void list(ClientBlobStore store, List<String> named) throws Exception {
        Iterator<String> keys = named.isEmpty() ? store.listKeys() : named.iterator();
        while (keys.hasNext()) {
            String key = keys.next();
            try {
                ReadableBlobMeta meta = store.getBlobMeta(key);
                out.println(key + " " + meta.get_version() + " " + describe(meta.get_settable().get_acl()));
            } catch (KeyNotFoundException e) {
                if (!named.isEmpty()) {
                    err.println(key + " NOT FOUND");
                }
            } catch (AuthorizationException e) {
                if (!named.isEmpty()) {
                    err.println("ACCESS DENIED to key: " + key);
                }
            }
        }
    }

    private void cat(ClientBlobStore store, String key) throws Exception {
        try (InputStreamWithMeta blob = store.getBlob(key)) {
            if (command.file().isPresent()) {
                try (OutputStream file = Files.newOutputStream(command.file().get())) {
                    blob.transferTo(file);
                }
            } else {
                blob.transferTo(out);
                out.flush();
            }
        }
    }

    private InputStream input() throws CommandFailedException, IOException {
        if (command.file().isEmpty()) {
            return new NotClosing(in);
        }
        Path file = command.file().get();
        try {
            return Files.newInputStream(file);
        } catch (NoSuchFileException e) {
            throw new CommandFailedException("blobstore " + verb() + ": --file " + file + ": no such file");
        }
    }

    /** Writes the content as the blob's new version; anything failing before the end leaves the blob as it was. */
    private static void write(AtomicOutputStream blob, InputStream content) throws IOException {
        try {
            content.transferTo(blob);
            blob.close();
        } catch (IOException | RuntimeException e) {
            blob.cancel();
            throw e;
        }
    }

    private static List<AccessControl> acl(List<String> texts) {
        List<AccessControl> acl = new ArrayList<>();
        texts.forEach(text -> acl.add(BlobStoreAclHandler.parseAccessControl(text)));
        return acl;
    }

    private static List<String> describe(List<AccessControl> acl) {
        List<String> texts = new ArrayList<>();
        if (acl != null) {
            acl.forEach(ac -> texts.add(BlobStoreAclHandler.accessControlToString(ac)));
        }
        return texts;
    }

    /** Standard input, left open for the caller. */
    private static final class NotClosing extends FilterInputStream {
        NotClosing(InputStream in) {
            super(in);
        }

        @Override
        public void close() {
        }
    }
}
