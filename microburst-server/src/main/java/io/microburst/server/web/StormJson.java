package io.microburst.server.web;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.storm.generated.ErrorInfo;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.thrift.TException;

/**
 * What several Storm UI REST answers share: the window parameter, Storm's number and uptime formats, the error fields
 * and the logviewer links ({@link LogviewerAddress}). Stateless.
 */
final class StormJson {
    private StormJson() {
    }

    /** The window a request names, {@code :all-time} when none; an unknown one is a bad request. */
    static String window(String window) {
        String w = window == null || window.isBlank() ? ":all-time" : window;
        if (!ComponentTotals.WINDOWS.containsKey(w)) {
            throw new IllegalArgumentException("window must be one of " + ComponentTotals.WINDOWS.keySet() + ", got '"
                + window + "'");
        }
        return w;
    }

    /** Storm's {@code sys} parameter: 1 or true includes system components and streams. */
    static boolean sys(String sys) {
        return "1".equals(sys) || "true".equalsIgnoreCase(sys);
    }

    /**
     * A double as Storm's UI prints latencies and capacity: three decimals, in a string, as {@code String.format("%.3f")}
     * writes it (the shortest decimal of the double rounded half up), without a {@link java.util.Formatter}: the pages
     * ask for thousands of these a second, and a formatter per number was a tenth of the REST API's CPU.
     */
    static String decimal(double value) {
        double v = Double.isNaN(value) ? 0 : value;
        if (Double.isInfinite(v)) {
            return String.format(Locale.ROOT, "%.3f", v);
        }
        String text = BigDecimal.valueOf(v).setScale(3, RoundingMode.HALF_UP).toPlainString();
        return Double.compare(v, 0.0) < 0 && text.charAt(0) != '-' ? "-" + text : text; // -0.0 and -0.0001: "-0.000"
    }

    /** The server's configuration, as {@code getNimbusConf} answers it. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> nimbusConf(Nimbus.Iface nimbus) throws TException {
        Object parsed = JSONValue.parse(nimbus.getNimbusConf());
        return parsed instanceof Map ? (Map<String, Object>) parsed : Map.of();
    }

    /** Where the links find the logviewer, from the server's configuration. */
    static LogviewerAddress logviewer(Nimbus.Iface nimbus) throws TException {
        return LogviewerAddress.of(nimbusConf(nimbus));
    }

    /**
     * One error as Storm's component page lists it; {@code errorTime} in seconds since the epoch, as Storm 2.8.3's UI
     * sends it and its page reads it (the document's example shows milliseconds, from an older Storm).
     */
    static Map<String, Object> error(ErrorInfo e, String topologyId, LogviewerAddress logviewer) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("errorTime", e.get_error_time_secs());
        json.put("errorHost", e.get_host());
        json.put("errorPort", e.get_port());
        json.put("errorWorkerLogLink", logviewer.workerLogLink(e.get_host(), topologyId, e.get_port()));
        json.put("errorLapsedSecs", System.currentTimeMillis() / 1000 - e.get_error_time_secs());
        json.put("error", e.get_error());
        return json;
    }

    /**
     * The last-error fields of a spout or bolt row of the topology page; when there was none, Storm's: empty strings,
     * and null for the port and times.
     */
    static void putLastError(Map<String, Object> row, ErrorInfo last, String topologyId, LogviewerAddress logviewer) {
        row.put("lastError", last == null ? "" : last.get_error());
        row.put("errorHost", last == null ? "" : last.get_host());
        row.put("errorPort", last == null ? null : last.get_port());
        row.put("errorTime", last == null ? null : last.get_error_time_secs());
        row.put("errorLapsedSecs", last == null ? null : System.currentTimeMillis() / 1000 - last.get_error_time_secs());
        row.put("errorWorkerLogLink", last == null ? ""
            : logviewer.workerLogLink(last.get_host(), topologyId, last.get_port()));
    }

    static String prettyUptime(int secs) {
        int days = secs / 86400;
        int hours = secs / 3600 % 24;
        int minutes = secs / 60 % 60;
        int seconds = secs % 60;
        StringBuilder text = new StringBuilder();
        if (days > 0) {
            text.append(days).append("d ");
        }
        if (days > 0 || hours > 0) {
            text.append(hours).append("h ");
        }
        if (days > 0 || hours > 0 || minutes > 0) {
            text.append(minutes).append("m ");
        }
        return text.append(seconds).append('s').toString();
    }
}
