package io.microburst.cli;

import io.microburst.cli.demo.DemoRun;
import io.microburst.cli.display.FrameRenderer;
import io.microburst.cli.display.TerminalDetector;
import io.microburst.cli.local.LocalRun;
import io.microburst.cli.remote.AdminRun;
import io.microburst.cli.remote.BlobstoreRun;
import io.microburst.cli.remote.ConfValueRun;
import io.microburst.cli.remote.DrpcClientRun;
import io.microburst.cli.remote.ErrorsRun;
import io.microburst.cli.remote.KillRun;
import io.microburst.cli.remote.LogLevelRun;
import io.microburst.cli.remote.MonitorRun;
import io.microburst.cli.remote.ServerRun;
import io.microburst.cli.remote.SubmitRun;
import java.io.PrintStream;
import org.apache.storm.thrift.TException;

/**
 * Entry point of the {@code microburst} command. The only place that calls {@link System#exit}: 0 on success, 1 when
 * the run failed, 2 on a usage error.
 */
public final class Main {
    public static final int OK = 0;
    public static final int FAILED = 1;
    public static final int USAGE = 2;

    private Main() {
    }

    public static void main(String[] args) {
        // Exit explicitly: a topology's main or the cluster may leave non-daemon threads behind.
        System.exit(run(args, System.out, System.err));
    }

    /** Runs one command and returns the exit status; never exits the JVM itself. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        try {
            Command command = CommandLineParser.parse(args);
            if (command instanceof Command.Help help) {
                out.print(help.text());
                return OK;
            }
            if (command instanceof Command.Version version) {
                out.println(version.text());
                return OK;
            }
            if (command instanceof Command.Local local) {
                return new LocalRun(local, ClusterFactory.fromSystemProperties(), out, err).run();
            }
            if (command instanceof Command.Server server) {
                return new ServerRun(server, out).run();
            }
            if (command instanceof Command.Admin admin) {
                AdminOptions.notes(admin).forEach(note -> err.println("microburst: " + note));
                return new AdminRun(admin, out).run();
            }
            if (command instanceof Command.Kill kill) {
                return new KillRun(kill, out, err).run();
            }
            if (command instanceof Command.Monitor monitor) {
                return new MonitorRun(monitor, out).run();
            }
            if (command instanceof Command.Blob blob) {
                return new BlobstoreRun(blob, out, err, System.in).run();
            }
            if (command instanceof Command.SetLogLevel setLogLevel) {
                return new LogLevelRun(setLogLevel, out).run();
            }
            if (command instanceof Command.GetErrors getErrors) {
                return new ErrorsRun(getErrors, out).run();
            }
            if (command instanceof Command.ConfValue confValue) {
                return new ConfValueRun(confValue, out).run();
            }
            if (command instanceof Command.DrpcCalls drpc) {
                return new DrpcClientRun(drpc, out).run();
            }
            if (command instanceof Command.Submit submit) {
                return new SubmitRun(submit, out, err).run();
            }
            if (command instanceof Command.Bench) {
                // The launcher script runs the harness itself, from its own module's class path.
                throw new UsageException("bench runs from the microburst-bench module: use './microburst bench'");
            }
            Command.Demo demo = (Command.Demo) command;
            new DemoRun(demo, ClusterFactory.fromSystemProperties(),
                    FrameRenderer.forOutput(TerminalDetector.isInteractive()), out, err).run();
            return OK;
        } catch (UsageException e) {
            printUsageError(e, err);
            return USAGE;
        } catch (CommandFailedException e) {
            err.println("microburst: " + e.getMessage());
            return FAILED;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("microburst: interrupted");
            return FAILED;
        } catch (TException | IllegalArgumentException e) {
            // A refusal with a message meant for the user: a Nimbus error, a configuration the server will not accept.
            err.println("microburst: " + (e.getMessage() != null ? e.getMessage() : e.toString()));
            return FAILED;
        } catch (Exception | LinkageError e) {
            err.println("microburst: failed: " + e);
            e.printStackTrace(err);
            return FAILED;
        }
    }

    /**
     * One style for every usage error, as git's: the message, what the user may have meant, then the usage line of
     * the verb concerned and where to read more (never the whole help).
     */
    static void printUsageError(UsageException e, PrintStream err) {
        err.println("microburst: " + e.getMessage());
        if (!e.suggestions().isEmpty()) {
            err.println("Did you mean: " + String.join(" or ", e.suggestions()) + "?");
        }
        err.print(e.usage() != null ? e.usage() : "Run 'microburst --help' for more." + System.lineSeparator());
    }
}
