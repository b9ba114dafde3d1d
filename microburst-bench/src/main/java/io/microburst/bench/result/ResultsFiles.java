package io.microburst.bench.result;

import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The files of a bench's results folder: {@code results.json} (settings, every run, the summary), {@code runs.csv},
 * {@code summary.csv}, {@code summary.txt} (the terminal table) and {@code report.html}. Each file is replaced
 * atomically, so a reader (or an interrupted bench) never sees half a file. Not thread-safe.
 */
public final class ResultsFiles {
    /** Name of the JSON file. */
    public static final String JSON = "results.json";

    private final Path dir;

    public ResultsFiles(Path dir) {
        this.dir = dir;
    }

    /** The whole results document. */
    public record Document(BenchMeta meta, List<RunResult> runs, List<SummaryRow> summary) {
    }

    /** Writes every file for {@code runs} so far; returns the summary it computed. */
    public List<SummaryRow> write(BenchMeta meta, List<RunResult> runs) throws IOException {
        Files.createDirectories(dir);
        List<SummaryRow> summary = Summary.of(runs);
        replace(JSON, Json.MAPPER.writer().with(SerializationFeature.INDENT_OUTPUT)
            .writeValueAsString(new Document(meta, runs, summary)));
        List<String> runLines = new ArrayList<>();
        runLines.add(Csv.line(Csv.RUN_HEADER));
        runs.forEach(r -> runLines.add(Csv.runLine(r)));
        replace("runs.csv", String.join("\n", runLines) + "\n");
        List<String> summaryLines = new ArrayList<>();
        summaryLines.add(Csv.line(Csv.SUMMARY_HEADER));
        summary.forEach(s -> summaryLines.add(Csv.summaryLine(s)));
        replace("summary.csv", String.join("\n", summaryLines) + "\n");
        replace("summary.txt", TerminalTable.render(summary));
        replace("report.html", HtmlReport.render(meta, runs, summary));
        return summary;
    }

    /** Reads back a {@code results.json}. */
    public static Document read(Path json) throws IOException {
        return Json.MAPPER.readValue(json.toFile(), Document.class);
    }

    private void replace(String name, String content) throws IOException {
        Path tmp = dir.resolve(name + ".tmp");
        Files.writeString(tmp, content, StandardCharsets.UTF_8);
        Files.move(tmp, dir.resolve(name), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
