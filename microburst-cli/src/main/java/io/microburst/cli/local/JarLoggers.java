package io.microburst.cli.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;

/**
 * The loggers of the classes a topology jar brings, shown at INFO under {@code microburst local} as {@code storm local}
 * shows them (its log4j2 configuration has the root logger at INFO), while Storm's and Microburst's own loggers keep
 * the level the command line's configuration gives them. A class the jar brings is one in the jar and not on the
 * command line's class path: a jar that shades storm-client's classes does not make Storm's runtime log at INFO.
 *
 * <p>The levels are set per package, as logger names follow class names: a package of the jar that the class path does
 * not have at all gets INFO as a whole; in a package both have, each class only the jar has gets INFO by its own name;
 * a package of the class path below one that got INFO keeps the level it had. Only the entry names of the jars are
 * read (their central directories), no class is loaded.
 */
public record JarLoggers(List<String> shown, List<String> kept) {
    /** The name of the command line's own log4j2 configuration ({@code log4j2.xml}): a user's own is left alone. */
    public static final String CONFIGURATION_NAME = "microburst-cli";
    private static final String CLASS_SUFFIX = ".class";
    /** The loggers the command line's configuration sets for Storm's and Microburst's own classes. */
    private static final Set<String> RUNTIME_LOGGERS = Set.of("org.apache.storm", "io.microburst");

    public JarLoggers {
        shown = List.copyOf(shown);
        kept = List.copyOf(kept);
    }

    /**
     * @param jar the topology jar
     * @param classPath the command line's own class path (jars and class directories; missing entries are skipped)
     */
    public static JarLoggers of(Path jar, List<Path> classPath) throws IOException {
        // Names stay as entry names (a/b/C.class, packages a/b) until the end: the class path holds tens of thousands
        // of entries, and this runs before the topology's main.
        Map<String, List<String>> jarClasses = new HashMap<>();
        for (String name : entryNames(jar)) {
            if (isClass(name)) {
                jarClasses.computeIfAbsent(packageOf(name), p -> new ArrayList<>()).add(name);
            }
        }
        Set<String> pathPackages = new HashSet<>();
        Map<String, Set<String>> sharedClasses = new HashMap<>();
        String last = null;
        for (Path entry : classPath) {
            for (String name : entryNames(entry)) {
                if (!isClass(name)) {
                    continue;
                }
                int slash = name.lastIndexOf('/');
                if (last == null || slash != last.length() || !name.startsWith(last)) {
                    last = slash < 0 ? "" : name.substring(0, slash);
                    pathPackages.add(last);
                }
                Set<String> shared = sharedClasses.get(last);
                if (shared != null || jarClasses.containsKey(last)) {
                    (shared == null ? sharedClasses.computeIfAbsent(last, p -> new HashSet<>()) : shared).add(name);
                }
            }
        }
        Set<String> shownPackages = new HashSet<>();
        Set<String> shown = new TreeSet<>();
        for (Map.Entry<String, List<String>> pkg : jarClasses.entrySet()) {
            Set<String> shared = sharedClasses.get(pkg.getKey());
            if (shared == null && !pkg.getKey().isEmpty()) {
                shownPackages.add(pkg.getKey());
                shown.add(loggerName(pkg.getKey()));
            } else {
                for (String name : pkg.getValue()) {
                    if (shared == null || !shared.contains(name)) {
                        shown.add(loggerName(name.substring(0, name.length() - CLASS_SUFFIX.length())));
                    }
                }
            }
        }
        Set<String> kept = new TreeSet<>();
        for (String pkg : pathPackages) {
            for (int slash = pkg.lastIndexOf('/'); slash > 0; slash = pkg.lastIndexOf('/', slash - 1)) {
                if (shownPackages.contains(pkg.substring(0, slash))) {
                    kept.add(loggerName(pkg));
                    break;
                }
            }
        }
        return new JarLoggers(new ArrayList<>(shown), new ArrayList<>(kept));
    }

    /** Configures log4j2 for the caller's class loader, if not done yet: it takes a while, and needs no jar. */
    public static void initLogging() {
        LogManager.getContext(false);
    }

    /**
     * Applies the levels to the log4j2 configuration of the caller's class loader, if that configuration is the command
     * line's own ({@value #CONFIGURATION_NAME}): a configuration the user chose (such as {@code -Dlog4j2.configurationFile})
     * is theirs. Within it, a logger under one the configuration names for a library the jar may bundle (Kafka's,
     * Hadoop's clients) keeps that level; only the runtime's own trees ({@code org.apache.storm}, {@code io.microburst})
     * and the root give way to INFO.
     *
     * @return whether the levels were applied
     */
    public boolean apply() {
        if (shown.isEmpty() || !(LogManager.getContext(false) instanceof LoggerContext context)) {
            return false;
        }
        Configuration config = context.getConfiguration();
        if (!CONFIGURATION_NAME.equals(config.getName())) {
            return false;
        }
        Map<String, Level> levels = new LinkedHashMap<>();
        for (String name : shown) {
            String nearest = config.getLoggerConfig(name).getName();
            if (nearest.isEmpty() || RUNTIME_LOGGERS.contains(nearest)) {
                levels.put(name, Level.INFO);
            }
        }
        for (String name : kept) {
            levels.putIfAbsent(name, config.getLoggerConfig(name).getLevel());
        }
        levels.forEach((name, level) -> add(config, name, level));
        context.updateLoggers();
        return true;
    }

    private static void add(Configuration config, String name, Level level) {
        if (!config.getLoggers().containsKey(name)) {
            config.addLogger(name, LoggerConfig.newBuilder().withLoggerName(name).withLevel(level).withAdditivity(true)
                .withConfig(config).build());
        }
    }

    /** The entry names of a jar, or the relative file names in a class directory; none if it does not exist. */
    private static List<String> entryNames(Path entry) throws IOException {
        List<String> names = new ArrayList<>();
        if (Files.isDirectory(entry)) {
            String separator = entry.getFileSystem().getSeparator();
            try (Stream<Path> files = Files.walk(entry)) {
                files.filter(Files::isRegularFile).forEach(f -> names.add(entry.relativize(f).toString()
                    .replace(separator, "/")));
            }
        } else if (Files.isRegularFile(entry)) {
            try (ZipFile zip = new ZipFile(entry.toFile())) {
                for (Enumeration<? extends ZipEntry> e = zip.entries(); e.hasMoreElements(); ) {
                    names.add(e.nextElement().getName());
                }
            }
        }
        return names;
    }

    private static boolean isClass(String entryName) {
        return entryName.endsWith(CLASS_SUFFIX) && !entryName.startsWith("META-INF/")
            && !entryName.endsWith("module-info.class") && !entryName.endsWith("package-info.class");
    }

    /** The package of a class entry, as an entry name ({@code a/b}), or "" for none. */
    private static String packageOf(String entryName) {
        int slash = entryName.lastIndexOf('/');
        return slash < 0 ? "" : entryName.substring(0, slash);
    }

    private static String loggerName(String entryName) {
        return entryName.replace('/', '.');
    }
}
