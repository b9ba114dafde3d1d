package io.microburst.server.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.cluster.upgrade.UpgradeHistory;
import io.microburst.cluster.upgrade.UpgradeOptions;
import io.microburst.server.MicroburstServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.storm.Config;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.WebElement;

/**
 * The topology page's "Upgrades" table, in headless Chromium: hidden for a topology never upgraded; after two upgrades,
 * one row per upgrade, newest first, with the version, the ids it went from and to, the time and the output gap the
 * server recorded. Skipped, saying why, where Chromium or its driver is not installed.
 */
@Timeout(180)
class UpgradesPageBrowserTest {
    @TempDir
    static Path dir;
    private static MicroburstServer server;
    private static Browser browser;

    @BeforeAll
    static void start() throws Exception {
        Browser.requireOrSkip();
        server = WebTestServer.start(dir.resolve("data"));
        browser = Browser.start(Files.createDirectories(dir.resolve("chromium")));
    }

    @AfterAll
    static void stop() {
        if (browser != null) {
            browser.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private static String url(String path) {
        return "http://127.0.0.1:" + server.uiPort() + path;
    }

    @Test
    void aTopologyNeverUpgradedShowsNoUpgrades() throws Exception {
        String id = WebTestServer.submit(server, "page-never-upgraded");
        browser.open(url("/topology.html?id=" + id));
        browser.await("the page filled", () -> browser.text("#summary tbody td").equals("page-never-upgraded"));
        assertTrue(browser.findAll("#upgrades tbody tr").isEmpty());
        assertTrue(!browser.find("#upgrades-section").isDisplayed(), "the section is hidden");
    }

    @Test
    void upgradesAreListedNewestFirst() throws Exception {
        String name = "page-upgrades";
        String first = WebTestServer.submit(server, name);
        upgrade(name, 2);
        upgrade(name, 1);
        List<UpgradeHistory.Upgrade> recorded = server.cluster().getUpgradeHistory().of(name);
        assertEquals(2, recorded.size());
        assertEquals(first, recorded.get(0).fromId());
        String last = recorded.get(1).toId();

        browser.open(url("/topology.html?id=" + first));
        browser.await("two upgrades listed", () -> browser.findAll("#upgrades tbody tr").size() == 2);
        assertTrue(browser.find("#upgrades-section").isDisplayed());
        browser.screenshot("topology-upgrades");
        List<List<String>> rows = new ArrayList<>();
        for (WebElement row : browser.findAll("#upgrades tbody tr")) {
            rows.add(row.findElements(org.openqa.selenium.By.tagName("td")).stream().map(WebElement::getText).toList());
        }
        for (int i = 0; i < 2; i++) {
            UpgradeHistory.Upgrade u = recorded.get(1 - i);
            List<String> row = rows.get(i);
            assertEquals(List.of(String.valueOf(u.version()), java.time.Instant.ofEpochMilli(u.atMillis()).toString()
                .replace("T", " ").replace("Z", ""), u.fromId(), u.toId(), String.valueOf(u.gapMillis()),
                String.valueOf(u.failedBack())), row, "row " + i + ", newest first");
        }
        assertEquals("3", rows.get(0).get(0));
        assertEquals(last, rows.get(0).get(3));
    }

    /** Upgrades {@code name} to a version whose count bolt has {@code executors} executors. */
    private static void upgrade(String name, int executors) throws Exception {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("spout", new WebTestServer.IdleSpout(), 1).setNumTasks(8);
        builder.setBolt("split", new WebTestServer.IdleBolt(), 1).setNumTasks(8).shuffleGrouping("spout");
        builder.setBolt("count", new WebTestServer.IdleBolt(), executors).fieldsGrouping("split", new Fields("x"));
        Config conf = new Config();
        conf.put(Config.NIMBUS_THRIFT_PORT, server.thriftPort());
        conf.put(UpgradeOptions.UPGRADE, true);
        conf.put(UpgradeOptions.WAIT_SECS, 5);
        server.cluster().submitTopology(name, conf, builder.createTopology());
    }
}
