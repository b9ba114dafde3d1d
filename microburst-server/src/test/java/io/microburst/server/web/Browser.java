package io.microburst.server.web;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A headless Chromium driven through Debian's {@code chromium} and {@code chromium-driver} packages (Selenium never
 * downloads a browser or a driver here), as a person uses the pages: open, click, type, read, and take screenshots
 * into {@code target/screenshots/}. Used by one test thread at a time.
 */
final class Browser implements AutoCloseable {
    private static final List<String> CHROMIUM = List.of("/usr/bin/chromium", "/usr/bin/chromium-browser");
    private static final List<String> DRIVER = List.of("/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver");
    private static final Path SCREENSHOTS = Path.of("target", "screenshots");

    private final ChromeDriver driver;
    private final WebDriverWait wait;

    private Browser(ChromeDriver driver) {
        this.driver = driver;
        this.wait = new WebDriverWait(driver, Duration.ofSeconds(30), Duration.ofMillis(50));
    }

    /** Why the browser tests cannot run here, or null when Chromium and its driver are installed. */
    static String missing() {
        if (first(CHROMIUM) == null || first(DRIVER) == null) {
            return "headless Chromium or its driver not found: install Debian's 'chromium' and 'chromium-driver' "
                + "packages (apt-get install chromium chromium-driver; .ci/run does) to run the page tests";
        }
        return null;
    }

    /**
     * Skips the calling test, saying why, where Chromium or its driver is missing; but fails it, with the same one-line
     * message, where a browser is required: in CI (the environment variable {@code CI} set to anything but
     * {@code false} or {@code 0}, or {@code MICROBURST_BROWSER_REQUIRED=true}) or with
     * {@code -Dmicroburst.browser.required=true}, so that the page tests cannot pass there by skipping silently.
     */
    static void requireOrSkip() {
        String missing = missing();
        if (missing == null) {
            return;
        }
        if (required(System.getProperty("microburst.browser.required"), System.getenv("MICROBURST_BROWSER_REQUIRED"),
            System.getenv("CI"))) {
            throw new AssertionError("a browser is required here (CI or microburst.browser.required) but " + missing);
        }
        Assumptions.abort(missing);
    }

    /** Whether a browser is required, from the property, the project's variable and the usual CI variable. */
    static boolean required(String property, String projectVariable, String ciVariable) {
        if (property != null && !property.isBlank()) {
            return Boolean.parseBoolean(property.trim());
        }
        if (projectVariable != null && !projectVariable.isBlank()) {
            return Boolean.parseBoolean(projectVariable.trim());
        }
        return ciVariable != null && !ciVariable.isBlank() && !ciVariable.trim().equalsIgnoreCase("false")
            && !ciVariable.trim().equals("0");
    }

    static Browser start(Path profile) {
        return start(profile, List.of());
    }

    /** As above, with more of Chromium's switches (e.g. {@code --ignore-certificate-errors} for a test certificate). */
    static Browser start(Path profile, List<String> switches) {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(first(CHROMIUM));
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
            "--window-size=1400,1200", "--user-data-dir=" + profile.toAbsolutePath());
        options.addArguments(switches);
        ChromeDriverService service = new ChromeDriverService.Builder()
            .usingDriverExecutable(new File(first(DRIVER))).usingAnyFreePort().build();
        return new Browser(new ChromeDriver(service, options));
    }

    void open(String url) {
        driver.get(url);
    }

    WebElement find(String css) {
        return driver.findElement(By.cssSelector(css));
    }

    List<WebElement> findAll(String css) {
        return driver.findElements(By.cssSelector(css));
    }

    /** Clicks what the selector finds, finding it again if the page replaced it in between (pages refresh). */
    void click(String css) {
        for (int attempt = 1; ; attempt++) {
            try {
                find(css).click();
                return;
            } catch (StaleElementReferenceException e) {
                if (attempt == 3) {
                    throw e;
                }
            }
        }
    }

    /** The text of what the selector finds, read again if the page replaced it in between. */
    String text(String css) {
        for (int attempt = 1; ; attempt++) {
            try {
                return find(css).getText();
            } catch (StaleElementReferenceException e) {
                if (attempt == 3) {
                    throw e;
                }
            }
        }
    }

    void type(String css, String text) {
        WebElement field = find(css);
        field.clear();
        field.sendKeys(text);
    }

    /** Runs a script in the page and returns its result (maps, lists, strings, numbers, booleans as Java values). */
    Object script(String js) {
        return ((JavascriptExecutor) driver).executeScript(js);
    }

    String currentUrl() {
        return driver.getCurrentUrl();
    }

    /** Waits until the condition holds (checked every 50 ms, at most 30 s), saying what was awaited if it never does. */
    void await(String what, Supplier<Boolean> condition) {
        try {
            wait.withMessage(what).until(d -> {
                try {
                    return condition.get();
                } catch (WebDriverException | ClassCastException | NullPointerException e) {
                    return false;
                }
            });
        } catch (WebDriverException e) {
            throw new AssertionError("waited 30 s for " + what + " on " + driver.getCurrentUrl() + "; page error: '"
                + driver.findElements(By.id("error")).stream().map(WebElement::getText).findFirst().orElse("") + "'", e);
        }
    }

    /** A screenshot of the whole window as target/screenshots/NAME.png. */
    Path screenshot(String name) throws IOException {
        Files.createDirectories(SCREENSHOTS);
        Path to = SCREENSHOTS.resolve(name + ".png");
        Files.copy(driver.getScreenshotAs(OutputType.FILE).toPath(), to, StandardCopyOption.REPLACE_EXISTING);
        return to;
    }

    @Override
    public void close() {
        driver.quit();
    }

    private static String first(List<String> candidates) {
        return candidates.stream().filter(c -> new File(c).canExecute()).findFirst().orElse(null);
    }
}
