package io.microburst.server;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.apache.storm.generated.AlreadyAliveException;
import org.apache.storm.generated.InvalidTopologyException;
import org.apache.storm.generated.NotAliveException;

/**
 * The entry point of the JVM {@link ChildJvmSubmit} starts: {@code RESULT_FILE MAIN_CLASS [ARGS]}. Runs the user's
 * main (its jar is on the class path, {@code storm.jar} and {@code storm.options} are set), then exits: 0 when the main
 * returned, 1 with one line in {@code RESULT_FILE} when it could not run or threw (a refused submit: the server's
 * message; else what failed), its trace on the output. Exits even when the main left threads running.
 *
 * <p>Threading: the JVM's main thread.
 */
public final class ChildSubmitMain {
    private ChildSubmitMain() {
    }

    public static void main(String[] args) throws IOException {
        Path result = Path.of(args[0]);
        String mainClass = args[1];
        String[] mainArgs = Arrays.copyOfRange(args, 2, args.length);
        String failure = null;
        try {
            Class<?> type = Class.forName(mainClass, true, Thread.currentThread().getContextClassLoader());
            Method main = type.getMethod("main", String[].class);
            if (!Modifier.isStatic(main.getModifiers())) {
                throw new NoSuchMethodException();
            }
            main.invoke(null, (Object) mainArgs);
        } catch (ClassNotFoundException e) {
            failure = "the new jar has no class " + mainClass + "; give the main class of the new version";
        } catch (NoSuchMethodException | IllegalAccessException e) {
            failure = mainClass + " has no public static void main(String[]); give the main class of the new version";
        } catch (InvocationTargetException e) {
            e.getCause().printStackTrace();
            failure = reason(mainClass, e.getCause());
        } catch (LinkageError e) {
            e.printStackTrace();
            failure = "the new jar's classes cannot be loaded (" + e.getMessage() + "); build it against storm-client "
                + "2.8.3 with storm-client in provided scope";
        }
        if (failure != null) {
            Files.writeString(result, failure.replaceAll("\\R", " ") + "\n", StandardCharsets.UTF_8);
        }
        System.out.flush();
        System.exit(failure == null ? 0 : 1);
    }

    /** The server's refusal, when the main's submit was refused; else what the main threw. */
    private static String reason(String mainClass, Throwable thrown) {
        for (Throwable t = thrown; t != null; t = t.getCause()) {
            if (t instanceof InvalidTopologyException e && e.get_msg() != null) {
                return e.get_msg();
            } else if (t instanceof AlreadyAliveException e && e.get_msg() != null) {
                return e.get_msg();
            } else if (t instanceof NotAliveException e && e.get_msg() != null) {
                return e.get_msg();
            }
        }
        String message = thrown.getMessage();
        return mainClass + ".main failed: " + (message == null || message.isBlank() ? "it threw "
            + thrown.getClass().getSimpleName() : message);
    }
}
