package io.microburst.it.soak;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a dashboard and Prometheus do: the pages, the REST API's summaries and a topology's page, and {@code /metrics},
 * every second (every 200 ms while {@link #hammer} is set). A scrape while the server is down fails, and
 * is counted apart; one that gets a 5xx while it is up is a finding. Runs on its own thread.
 */
final class SoakScraper implements Runnable {
    private static final Pattern ID = Pattern.compile("\"id\":\"([^\"]+)\"");
    private static final String[] PAGES = {"/index.html", "/api/v1/cluster/summary", "/api/v1/topology/summary",
        "/api/v1/nimbus/summary", "/api/v1/supervisor/summary", "/metrics"};

    /** While hammering: a sweep every 200 ms, five times the dashboards' pace. */
    static final long HAMMER_INTERVAL_MILLIS = 200;

    volatile boolean hammer;
    /** Set through the quiet throughput phases. */
    volatile boolean paused;
    volatile boolean running = true;
    final AtomicLong served = new AtomicLong();
    final AtomicLong unreachable = new AtomicLong();
    final AtomicLong serverErrors = new AtomicLong();

    private final SoakClient client;
    private final SoakServer server;
    private final Random random;
    private final List<String> errors = new ArrayList<>();

    SoakScraper(SoakClient client, SoakServer server, long seed) {
        this.client = client;
        this.server = server;
        this.random = new Random(seed);
    }

    @Override
    public void run() {
        while (running) {
            long start = System.nanoTime();
            if (paused) {
                idle(100);
                continue;
            }
            try {
                List<String> ids = new ArrayList<>();
                for (String page : PAGES) {
                    HttpResponse<String> r = check(page);
                    if (page.endsWith("topology/summary")) {
                        Matcher m = ID.matcher(r.body());
                        while (m.find()) {
                            ids.add(m.group(1));
                        }
                    }
                }
                if (!ids.isEmpty()) {
                    String id = ids.get(random.nextInt(ids.size()));
                    check("/api/v1/topology/" + id + "?window=:all-time");
                    check("/topology.html?id=" + id);
                }
            } catch (Exception e) {
                unreachable.incrementAndGet(); // the server being killed or started: expected
            }
            long left = (hammer ? HAMMER_INTERVAL_MILLIS : 1000) - (System.nanoTime() - start) / 1_000_000;
            if (left > 0) {
                idle(left);
            }
        }
    }

    private static void idle(long millis) {
        try {
            Thread.sleep(millis); // the scrape interval
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private HttpResponse<String> check(String path) throws Exception {
        HttpResponse<String> r = client.get(path);
        if (r.statusCode() >= 500 && server.isAlive()) {
            serverErrors.incrementAndGet();
            synchronized (errors) {
                if (errors.size() < 10) {
                    errors.add(path + " " + r.statusCode() + " " + r.body());
                }
            }
        } else if (r.statusCode() == 200) {
            served.incrementAndGet();
        }
        return r;
    }

    List<String> errors() {
        synchronized (errors) {
            return new ArrayList<>(errors);
        }
    }
}
