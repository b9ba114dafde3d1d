package io.microburst.cli.remote;

import io.microburst.cli.Command;
import io.microburst.cli.CommandFailedException;
import java.io.PrintStream;
import org.apache.storm.generated.LogConfig;
import org.apache.storm.generated.LogLevel;
import org.apache.storm.generated.LogLevelAction;
import org.apache.storm.utils.Utils;

/**
 * {@code microburst set_log_level}: sends Storm's {@code LogConfig} for a running topology to the configured Nimbus
 * ({@code setLogConfig}, by topology id as Storm's command does) and prints the line Storm's command logs.
 */
public final class LogLevelRun {
    private final Command.SetLogLevel command;
    private final PrintStream out;

    public LogLevelRun(Command.SetLogLevel command, PrintStream out) {
        this.command = command;
        this.out = out;
    }

    public int run() throws Exception {
        LogConfig config = new LogConfig();
        command.set().forEach((logger, change) -> {
            LogLevel level = new LogLevel(LogLevelAction.UPDATE);
            level.set_target_log_level(change.level());
            level.set_reset_log_level_timeout_secs(change.timeoutSecs());
            config.put_to_named_logger_level(logger, level);
        });
        command.remove().forEach(logger -> config.put_to_named_logger_level(logger, new LogLevel(LogLevelAction.REMOVE)));
        String name = command.topology();
        NimbusCall.run("set_log_level", AdminRun.clientConf(command.conf()), name, nimbus -> {
            String id = Utils.getTopologyId(name, nimbus);
            if (id == null) {
                throw new CommandFailedException("set_log_level: no topology named '" + name + "' is running");
            }
            nimbus.setLogConfig(id, config);
        });
        out.println("Log config " + config + " is sent for topology " + name);
        return 0;
    }
}
