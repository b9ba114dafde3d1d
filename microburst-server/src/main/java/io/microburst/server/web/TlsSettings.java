package io.microburst.server.web;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.KeyStoreException;
import java.security.UnrecoverableKeyException;
import java.util.Collections;
import java.util.Map;
import org.apache.storm.utils.ObjectReader;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * HTTPS for one of the server's HTTP faces, read from Storm's own keys for it as Storm 2.8.3's daemons read them: the
 * UI's ({@value #UI}{@code .https.*}, {@link #from(Map)}) or the logviewer's ({@value #LOGVIEWER}{@code .https.*},
 * {@link #from(Map, String)}). {@code D.https.port} above 0 turns it on, the key comes from
 * {@code D.https.keystore.path} ({@code .keystore.type}, default PKCS12, which also reads JKS files) opened with
 * {@code .keystore.password} and its key with {@code .key.password} (default: the keystore's password), and
 * {@code .need.client.auth} / {@code .want.client.auth} ask clients for certificates that {@code .truststore.path}
 * vouches for. Both stores are opened when the settings are read, so a wrong path, password or type stops the server's
 * start with one line naming the key, rather than a TLS failure at the first request. Immutable once built; any
 * thread.
 *
 * @param port the HTTPS port
 * @param keyStore the server's key and certificate chain, opened
 * @param keyPassword the password of the key inside it
 * @param trustStore the certificates that client certificates must chain to, or null
 * @param needClientAuth whether a client without a trusted certificate is refused
 * @param wantClientAuth whether a client is asked for a certificate (and may send none)
 */
public record TlsSettings(int port, KeyStore keyStore, String keyPassword, KeyStore trustStore, boolean needClientAuth,
                          boolean wantClientAuth) {
    /** The prefix of the UI's keys (Storm's DaemonConfig {@code UI_HTTPS_*}). */
    public static final String UI = "ui";
    /** The prefix of the logviewer's keys (Storm's DaemonConfig {@code LOGVIEWER_HTTPS_*}). */
    public static final String LOGVIEWER = "logviewer";
    /** Storm's key (DaemonConfig): the UI's HTTPS port; 0 or unset: no HTTPS. */
    public static final String PORT = UI + ".https.port";
    public static final String KEYSTORE_PATH = UI + ".https.keystore.path";
    public static final String KEYSTORE_PASSWORD = UI + ".https.keystore.password";
    public static final String KEYSTORE_TYPE = UI + ".https.keystore.type";
    public static final String KEY_PASSWORD = UI + ".https.key.password";
    public static final String TRUSTSTORE_PATH = UI + ".https.truststore.path";
    public static final String TRUSTSTORE_PASSWORD = UI + ".https.truststore.password";
    public static final String TRUSTSTORE_TYPE = UI + ".https.truststore.type";
    public static final String WANT_CLIENT_AUTH = UI + ".https.want.client.auth";
    public static final String NEED_CLIENT_AUTH = UI + ".https.need.client.auth";
    /**
     * Storm's key (default true in Storm's defaults): with HTTPS on, no plain HTTP on {@code ui.port}. Set to false to
     * keep plain HTTP as well. The logviewer's is {@code logviewer.disable.http.binding}, the same way.
     */
    public static final String DISABLE_HTTP_BINDING = UI + ".disable.http.binding";
    private static final String DEFAULT_TYPE = "PKCS12";

    /** The UI's settings: {@link #from(Map, String)} for {@value #UI}. */
    public static TlsSettings from(Map<String, Object> conf) {
        return from(conf, UI);
    }

    /**
     * The settings under {@code daemon}'s keys in {@code conf}, or null when {@code DAEMON.https.port} is unset or 0
     * (no HTTPS, as in Storm).
     *
     * @param daemon {@value #UI} or {@value #LOGVIEWER}
     * @throws IllegalArgumentException in one line naming the key, when a store cannot be opened as configured
     */
    public static TlsSettings from(Map<String, Object> conf, String daemon) {
        String portKey = key(daemon, "port");
        int port = ObjectReader.getInt(conf.get(portKey), 0);
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException(portKey + " must be a port from 1 to 65535 (0 or unset: no HTTPS): "
                + port);
        }
        if (port == 0) {
            return null;
        }
        String pathKey = key(daemon, "keystore.path");
        String passwordKey = key(daemon, "keystore.password");
        String path = text(conf, pathKey);
        if (path == null) {
            throw new IllegalArgumentException(portKey + " is " + port + " but " + pathKey + " is not set: name the "
                + "keystore holding the server's key and certificate (for example one made with the JDK's keytool)");
        }
        String password = text(conf, passwordKey);
        String typeKey = key(daemon, "keystore.type");
        KeyStore keys = open(Path.of(path), typeOf(conf, typeKey), password, pathKey, passwordKey, typeKey);
        String keyPasswordKey = key(daemon, "key.password");
        String keyPassword = text(conf, keyPasswordKey) != null ? text(conf, keyPasswordKey) : password;
        checkKey(keys, path, keyPassword, pathKey, passwordKey, keyPasswordKey);
        String trustPathKey = key(daemon, "truststore.path");
        String trustPath = text(conf, trustPathKey);
        KeyStore trust = trustPath == null ? null : open(Path.of(trustPath), typeOf(conf, key(daemon,
            "truststore.type")), text(conf, key(daemon, "truststore.password")), trustPathKey,
            key(daemon, "truststore.password"), key(daemon, "truststore.type"));
        String needKey = key(daemon, "need.client.auth");
        String wantKey = key(daemon, "want.client.auth");
        boolean need = ObjectReader.getBoolean(conf.get(needKey), false);
        boolean want = ObjectReader.getBoolean(conf.get(wantKey), false);
        if ((need || want) && trust == null) {
            throw new IllegalArgumentException((need ? needKey : wantKey) + " is true but " + trustPathKey
                + " is not set: name the truststore whose certificates client certificates must chain to");
        }
        return new TlsSettings(port, keys, keyPassword, trust, need, want);
    }

    /** Storm's name for one of {@code daemon}'s HTTPS keys: {@code DAEMON.https.SUFFIX}. */
    public static String key(String daemon, String suffix) {
        return daemon + ".https." + suffix;
    }

    /** Whether {@value #DISABLE_HTTP_BINDING} (Storm's default: true) turns plain HTTP off while HTTPS is on. */
    public static boolean plainHttpOff(Map<String, Object> conf) {
        return plainHttpOff(conf, UI);
    }

    /** Whether {@code DAEMON.disable.http.binding} (Storm's default: true) turns plain HTTP off while HTTPS is on. */
    public static boolean plainHttpOff(Map<String, Object> conf, String daemon) {
        return ObjectReader.getBoolean(conf.get(daemon + ".disable.http.binding"), true);
    }

    /** Jetty's server-side TLS set up from these settings, with the protocols and ciphers Java deems safe. */
    SslContextFactory.Server contextFactory() {
        SslContextFactory.Server factory = new SslContextFactory.Server();
        factory.setKeyStore(keyStore);
        factory.setKeyManagerPassword(keyPassword);
        if (trustStore != null) {
            factory.setTrustStore(trustStore);
        }
        factory.setNeedClientAuth(needClientAuth);
        factory.setWantClientAuth(wantClientAuth && !needClientAuth);
        factory.setRenegotiationAllowed(false);
        return factory;
    }

    private static String text(Map<String, Object> conf, String key) {
        Object value = conf.get(key);
        if (value == null) {
            return null;
        }
        if (!(value instanceof String s)) {
            throw new IllegalArgumentException(key + " must be a string: " + value);
        }
        return s.isEmpty() && !key.endsWith("password") ? null : s;
    }

    private static String typeOf(Map<String, Object> conf, String key) {
        String type = text(conf, key);
        return type == null ? DEFAULT_TYPE : type;
    }

    private static KeyStore open(Path path, String type, String password, String pathKey, String passwordKey,
                                 String typeKey) {
        KeyStore store;
        try {
            store = KeyStore.getInstance(type);
        } catch (KeyStoreException e) {
            throw new IllegalArgumentException(typeKey + " '" + type + "' is not a keystore type this Java knows: use "
                + "PKCS12 or JKS");
        }
        try (InputStream in = Files.newInputStream(path)) {
            store.load(in, password == null ? null : password.toCharArray());
            return store;
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(pathKey + ": no file " + path.toAbsolutePath());
        } catch (IOException e) {
            if (e.getCause() instanceof UnrecoverableKeyException || String.valueOf(e.getMessage()).contains("password")) {
                throw new IllegalArgumentException(passwordKey + " does not open the keystore " + path.toAbsolutePath()
                    + " (" + pathKey + "): give its password");
            }
            throw new IllegalArgumentException(pathKey + ": " + path.toAbsolutePath() + " cannot be read as a " + type
                + " keystore (" + typeKey + "): " + e.getMessage());
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(pathKey + ": " + path.toAbsolutePath() + " cannot be read as a " + type
                + " keystore (" + typeKey + "): " + e.getMessage());
        }
    }

    /** Requires a private key in the store that {@code keyPassword} opens. */
    private static void checkKey(KeyStore keys, String path, String keyPassword, String pathKey, String passwordKey,
                                 String keyPasswordKey) {
        try {
            for (String alias : Collections.list(keys.aliases())) {
                if (keys.isKeyEntry(alias)) {
                    try {
                        keys.getKey(alias, keyPassword == null ? new char[0] : keyPassword.toCharArray());
                        return;
                    } catch (UnrecoverableKeyException e) {
                        throw new IllegalArgumentException(keyPasswordKey + " does not open the key '" + alias + "' in "
                            + path + ": give the key's password (unset, it is " + passwordKey + ")");
                    }
                }
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(pathKey + ": the keys in " + path + " cannot be read: "
                + e.getMessage());
        }
        throw new IllegalArgumentException(pathKey + ": " + path + " holds no private key: it needs the server's "
            + "key and certificate (keytool -genkeypair, or openssl pkcs12 -export)");
    }
}
