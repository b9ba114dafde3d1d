package io.microburst.server.web;

import io.microburst.server.MicroburstServer;
import io.microburst.server.ServerConfig;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.apache.storm.Config;

/**
 * What the TLS tests share: a keystore made by the JDK's own keytool, a client context that trusts only its
 * certificate, and a server started on a free HTTPS port ({@code ui.https.port} has no "any free port" value, as in
 * Storm: 0 means no HTTPS).
 */
final class TestTls {
    private TestTls() {
    }

    /**
     * A keystore with one self-signed EC key for {@code localhost} and the given addresses.
     *
     * @param type PKCS12 or JKS (only JKS keeps a key password different from the store's)
     */
    static Path keystore(Path dir, String name, String type, String storePassword, String keyPassword,
                         List<String> addresses) throws IOException, InterruptedException {
        Path file = dir.resolve(name);
        StringBuilder san = new StringBuilder("SAN=dns:localhost");
        addresses.forEach(a -> san.append(",ip:").append(a));
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
            "-genkeypair", "-alias", "ui", "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2",
            "-dname", "CN=localhost", "-ext", san.toString(), "-keystore", file.toString(), "-storetype", type,
            "-storepass", storePassword, "-keypass", keyPassword).redirectErrorStream(true).start();
        String output;
        try (InputStream in = keytool.getInputStream()) {
            output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        if (!keytool.waitFor(60, TimeUnit.SECONDS) || keytool.exitValue() != 0 || !Files.isRegularFile(file)) {
            throw new AssertionError("keytool failed: " + output);
        }
        return file;
    }

    /** A client context that trusts the certificate in {@code keystore} and nothing else. */
    static SSLContext trusting(Path keystore, String type, String password) throws Exception {
        KeyStore keys = KeyStore.getInstance(type);
        try (InputStream in = Files.newInputStream(keystore)) {
            keys.load(in, password.toCharArray());
        }
        Certificate certificate = keys.getCertificate("ui");
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("ui", certificate);
        TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trustManagers.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trustManagers.getTrustManagers(), null);
        return context;
    }

    /** A server configuration on {@code data} with every port chosen by the system, plus {@code extra}. */
    static Map<String, Object> conf(Path data, Map<String, Object> extra) {
        Map<String, Object> conf = new HashMap<>();
        conf.put(ServerConfig.DIR, data.toString());
        conf.put(Config.NIMBUS_THRIFT_PORT, 0);
        conf.put(ServerConfig.UI_PORT, 0);
        conf.put(ServerConfig.LOGVIEWER_PORT, 0);
        conf.putAll(extra);
        return conf;
    }

    /**
     * A server with {@code conf} and {@value TlsSettings#PORT} on a port free a moment before; should another process
     * take it in between, again on another (at most three times).
     */
    static MicroburstServer start(Map<String, Object> conf) throws Exception {
        return start(conf, TlsSettings.UI);
    }

    /**
     * As above, with {@code DAEMON.https.port} ({@link TlsSettings#UI} or {@link TlsSettings#LOGVIEWER}); a logviewer
     * that could not listen (the server starts without it) counts as a taken port too.
     */
    static MicroburstServer start(Map<String, Object> conf, String daemon) throws Exception {
        for (int attempt = 1; ; attempt++) {
            int port;
            try (ServerSocket probe = new ServerSocket(0)) {
                port = probe.getLocalPort();
            }
            conf.put(TlsSettings.key(daemon, "port"), port);
            MicroburstServer server;
            try {
                server = MicroburstServer.start(conf);
            } catch (IOException e) {
                if (attempt == 3 || !String.valueOf(e.getMessage()).contains("Failed to bind")) {
                    throw e;
                }
                continue;
            }
            if (!daemon.equals(TlsSettings.LOGVIEWER) || server.logViewerHttpsPort() == port || attempt == 3) {
                return server;
            }
            server.close();
        }
    }
}
