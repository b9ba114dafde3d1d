package io.microburst.server;

import io.microburst.cluster.upgrade.UpgradeHistory;
import io.microburst.cluster.upgrade.UpgradeOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.storm.utils.WrappedInvalidTopologyException;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.generated.TopologyInitialStatus;
import org.apache.storm.thrift.TApplicationException;
import org.apache.storm.thrift.TException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The versions an upgrade keeps: before a new version of a running topology is stored, the stored one (jar,
 * configuration, topology, status) becomes, once the new version started, the one in
 * {@code DIR/previous-versions/NAME/}, kept until the next upgrade or a rollback; a failed or refused upgrade stores it
 * back as the current version and leaves the kept previous version as it was; {@code microburst upgrade --rollback} submits it
 * as the next upgrade, so a second rollback returns to the version rolled back from. A kill forgets both. The
 * topology's upgrades ({@link UpgradeHistory}: version, ids, time, gap) are stored beside it whenever it is stored
 * and after each upgrade, and given back to the cluster when a restart starts it again ({@link #restored}).
 *
 * <p>Threading: called by {@link ServerNimbus} under its lock.
 */
final class ServerUpgrades {
    private static final Logger LOG = LoggerFactory.getLogger(ServerUpgrades.class);
    private final TopologyStore current;
    private final TopologyStore previous;
    /** Names whose upgrade was announced ({@link #expect}), to when the announcement lapses ({@link System#nanoTime}). */
    private final Map<String, Long> expected = new java.util.concurrent.ConcurrentHashMap<>();
    /** The stored version an upgrade in progress replaces, until it started or failed (a copy of its jar). */
    private final Map<String, TopologyStore.Stored> replaced = new java.util.concurrent.ConcurrentHashMap<>();
    private final UpgradeHistory history;

    ServerUpgrades(TopologyStore current, UpgradeHistory history) throws IOException {
        this.current = current;
        this.history = history;
        this.previous = new TopologyStore(current.dir().resolveSibling("previous-versions"));
    }

    /**
     * Stores a submission, taking over {@code jar}; with {@code upgrade} the stored version is set aside, to become
     * the previous one once the new version started ({@link #started}) or to be stored again if it did not
     * ({@link #undo}): a refused upgrade leaves the kept previous version as it was. The upgrade's keys are not
     * stored: a restart starts the stored version as a plain submit.
     */
    TopologyStore.Stored save(String name, Path jar, Map<String, Object> conf, StormTopology topology,
                              TopologyInitialStatus status, boolean upgrade) throws IOException {
        if (upgrade) {
            TopologyStore.Stored stored = current.load(name);
            if (stored != null) {
                replaced.put(name, new TopologyStore.Stored(name, copyOfJar(stored), stored.conf(), stored.topology(),
                    stored.status(), Map.of()));
            }
        }
        Map<String, Object> kept = new HashMap<>(conf);
        kept.keySet().removeIf(k -> k.startsWith(UpgradeOptions.UPGRADE));
        TopologyStore.Stored stored = current.save(name, jar, kept, topology, status);
        if (upgrade) {
            saveHistory(name); // the upgrades so far, until this one is added
        }
        return stored;
    }

    /** The submission {@link #save}d for {@code name} started: the version it replaced becomes the previous one. */
    void started(String name) {
        TopologyStore.Stored was = replaced.remove(name);
        if (was != null) {
            try {
                previous.save(name, was.jar(), was.conf(), was.topology(), was.status());
            } catch (IOException e) {
                LOG.error("Cannot keep the previous version of {}: {}", name, e.toString());
            }
            saveHistory(name);
        }
    }

    /** A stored topology started again after a restart: its stored upgrades are the cluster's again. */
    void restored(String name) {
        try {
            history.restore(name, current.loadUpgrades(name));
        } catch (IOException e) {
            LOG.error("Topology {} runs without the record of its earlier upgrades: {}", name, e.getMessage());
        }
    }

    private void saveHistory(String name) {
        try {
            current.saveUpgrades(name, history.of(name));
        } catch (IOException e) {
            LOG.error("Cannot store the upgrades of {}: {}", name, e.toString());
        }
    }

    /** A submission that did not start: forgotten or, for an upgrade, the version it was to replace stored again. */
    void undo(String name, boolean upgrade) {
        try {
            TopologyStore.Stored was = upgrade ? replaced.remove(name) : null;
            if (was != null) {
                current.save(name, was.jar(), was.conf(), was.topology(), was.status());
                saveHistory(name);
            } else if (!upgrade) {
                current.remove(name);
            }
        } catch (IOException e) {
            LOG.error("Cannot undo the stored submission of {}: {}", name, e.toString());
        }
    }

    /**
     * The previous version of {@code name}, its jar copied to a file the caller takes over, its configuration asking
     * for an upgrade.
     *
     * @throws org.apache.storm.generated.InvalidTopologyException when none is kept
     */
    TopologyStore.Stored rollbackTarget(String name) throws TException {
        TopologyStore.Stored kept;
        try {
            kept = previous.load(name);
        } catch (IOException e) {
            throw new TApplicationException(TApplicationException.INTERNAL_ERROR, "rollback of '" + name + "': " + e);
        }
        if (kept == null) {
            throw new WrappedInvalidTopologyException("Topology '" + name + "' has no previous version to roll back to (it was "
                + "never upgraded on this server)");
        }
        Map<String, Object> conf = new HashMap<>(kept.conf());
        conf.put(UpgradeOptions.UPGRADE, true);
        conf.remove(UpgradeOptions.RENAME);
        conf.remove(UpgradeOptions.DROP_STATE);
        try {
            return new TopologyStore.Stored(name, copyOfJar(kept), conf, kept.topology(), kept.status(), Map.of());
        } catch (IOException e) {
            throw new TApplicationException(TApplicationException.INTERNAL_ERROR, "rollback of '" + name + "': " + e);
        }
    }

    /** {@code microburst upgrade} announces a submit of running {@code name}: its name is allowed for 10 minutes. */
    void expect(String name) {
        expected.put(name, System.nanoTime() + TimeUnit.MINUTES.toNanos(10));
    }

    /** Whether an upgrade of {@code name} was announced and has not come yet. Any thread. */
    boolean expects(String name) {
        Long until = expected.get(name);
        return until != null && until - System.nanoTime() > 0;
    }

    /** As {@link #expects}, and forgets the announcement: the submit it announced has come. */
    boolean expected(String name) {
        boolean was = expects(name);
        expected.remove(name);
        return was;
    }

    /** Forgets the kept version of a killed topology. */
    void forget(String name) {
        try {
            previous.remove(name);
        } catch (IOException e) {
            LOG.error("Cannot remove the previous version of {}: {}", name, e.toString());
        }
    }

    private static Path copyOfJar(TopologyStore.Stored stored) throws IOException {
        Path copy = Files.createTempFile(stored.jar().getParent().getParent(), "upgrade-", ".jar");
        return Files.copy(stored.jar(), copy, StandardCopyOption.REPLACE_EXISTING);
    }
}
