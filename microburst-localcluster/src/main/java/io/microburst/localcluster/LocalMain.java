package io.microburst.localcluster;

import io.microburst.drpc.InProcessDrpc;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.concurrent.Callable;
import org.apache.storm.ILocalCluster;
import org.apache.storm.utils.DRPCClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code LocalCluster.main} and {@code withLocalModeOverride}: a main run with a local cluster and a DRPC server that
 * storm-client's {@code NimbusClient}, {@code StormSubmitter} and {@code DRPCClient} reach, kept for
 * {@code storm.local.sleeptime} seconds (20) afterwards, as Storm's {@code storm local} does. ({@code microburst
 * local} is the command that does this for a jar, with a duration, a graceful stop and an exit status.)
 *
 * <p>Runs on the calling thread.
 */
public final class LocalMain {
    private static final Logger LOG = LoggerFactory.getLogger(LocalMain.class);
    private static final String SLEEP_TIME = "storm.local.sleeptime";

    private LocalMain() {
    }

    /** Makes the cluster a run uses. */
    @FunctionalInterface
    public interface ClusterMaker {
        ILocalCluster make() throws Exception;
    }

    /** Runs {@code call} while the cluster {@code maker} makes and an in-process DRPC server answer; then waits. */
    public static <T> T withLocalModeOverride(Callable<T> call, long ttlSec, ClusterMaker maker) throws Exception {
        try (ILocalCluster cluster = maker.make();
             InProcessDrpc drpc = new InProcessDrpc();
             DRPCClient.LocalOverride drpcOverride = new DRPCClient.LocalOverride(drpc)) {
            T result = call.call();
            LOG.info("Keeping the local cluster running for {} seconds", ttlSec);
            Thread.sleep(ttlSec * 1000);
            return result;
        }
    }

    /** Runs class {@code args[0]}'s main with the other arguments, then exits as Storm's does. */
    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            throw new IllegalArgumentException("No class was specified to run: LocalCluster MAIN_CLASS [ARGS...]");
        }
        long ttl = 20;
        String ttlText = System.getProperty(SLEEP_TIME, "20");
        try {
            ttl = Long.parseLong(ttlText.trim());
        } catch (NumberFormatException e) {
            LOG.warn("{}={} is not a number of seconds; using {}", SLEEP_TIME, ttlText, ttl);
        }
        String[] mainArgs = Arrays.copyOfRange(args, 1, args.length);
        Method main = Class.forName(args[0], true, Thread.currentThread().getContextClassLoader())
            .getMethod("main", String[].class);
        withLocalModeOverride(() -> {
            try {
                main.invoke(null, (Object) mainArgs);
            } catch (InvocationTargetException e) {
                throw e.getCause() instanceof Exception cause ? cause : e;
            }
            return null;
        }, ttl, () -> new org.apache.storm.LocalCluster());
        System.exit(0);
    }
}
