package io.microburst.server;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;

/**
 * Checks a finished upload before the server keeps it as a topology jar: it must be a zip file (what a jar is), its
 * entries must name paths inside the jar (no absolute names, no {@code ..}, which would climb out of a folder the
 * entries are extracted to: "zip slip"), and they must not expand to more than a limit (a zip bomb: kilobytes that
 * expand to gigabytes). Reads only the zip's central directory, never inflates an entry. Stateless; any thread.
 */
final class JarCheck {
    private static final Pattern CLIMBS = Pattern.compile("(^|[/\\\\])\\.\\.([/\\\\]|$)");
    private static final Pattern ABSOLUTE = Pattern.compile("^([/\\\\]|[A-Za-z]:)");
    private static final int SHOWN = 200;

    private JarCheck() {
    }

    /**
     * Null when {@code file} is a jar the server may keep, else what is wrong with it and what to do, in one line.
     *
     * @param maxExpandedBytes the most the entries may add up to once expanded
     */
    static String problem(Path file, long maxExpandedBytes) {
        try (ZipFile zip = new ZipFile(file.toFile())) {
            long expanded = 0;
            for (Enumeration<? extends ZipEntry> entries = zip.entries(); entries.hasMoreElements(); ) {
                ZipEntry entry = entries.nextElement();
                String name = entry.getName();
                if (ABSOLUTE.matcher(name).find() || CLIMBS.matcher(name).find() || name.indexOf('\0') >= 0) {
                    return "the jar has an entry named '" + shown(name) + "', a path outside the jar (absolute or with "
                        + "'..'); build the jar with your build tool, whose entries are relative paths";
                }
                long size = entry.getSize();
                expanded += Math.max(0, size);
                if (size < 0 || expanded > maxExpandedBytes) {
                    return "the jar would expand to more than " + maxExpandedBytes + " bytes ("
                        + ServerConfig.UPLOAD_MAX_EXPANDED_BYTES + (size < 0 ? "; entry '" + shown(name)
                        + "' does not say its size" : "") + "); upload a smaller jar, or raise the limit";
                }
            }
            return null;
        } catch (ZipException e) {
            return "the upload is not a jar (a zip file): " + reason(e) + "; upload the jar your build wrote (for "
                + "example target/*.jar after mvn package)";
        } catch (IOException e) {
            return "the upload could not be read as a jar: " + reason(e) + "; upload it again";
        }
    }

    private static String reason(IOException e) {
        return e.getMessage() == null ? "unreadable" : e.getMessage();
    }

    private static String shown(String name) {
        String clean = name.replaceAll("\\p{Cntrl}", "?");
        return clean.length() > SHOWN ? clean.substring(0, SHOWN) + "..." : clean;
    }
}
