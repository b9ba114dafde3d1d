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
 * HTTPS for the web port, read from Storm's own UI keys as Storm 2.8.3's UI server reads them: {@value #PORT} above 0
 * turns it on, the key comes from {@value #KEYSTORE_PATH} ({@value #KEYSTORE_TYPE}, default PKCS12, which also reads
 * JKS files) opened with {@value #KEYSTORE_PASSWORD} and its key with {@value #KEY_PASSWORD} (default: the keystore's
 * password), and {@value #NEED_CLIENT_AUTH} / {@value #WANT_CLIENT_AUTH} ask clients for certificates that
 * {@value #TRUSTSTORE_PATH} vouches for. Both stores are opened when the settings are read, so a wrong path, password or
 * type stops the server's start with one line naming the key, rather than a TLS failure at the first request.
 * Immutable once built; any thread.
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
    /** Storm's key (DaemonConfig): the UI's HTTPS port; 0 or unset: no HTTPS. */
    public static final String PORT = "ui.https.port";
    public static final String KEYSTORE_PATH = "ui.https.keystore.path";
    public static final String KEYSTORE_PASSWORD = "ui.https.keystore.password";
    public static final String KEYSTORE_TYPE = "ui.https.keystore.type";
    public static final String KEY_PASSWORD = "ui.https.key.password";
    public static final String TRUSTSTORE_PATH = "ui.https.truststore.path";
    public static final String TRUSTSTORE_PASSWORD = "ui.https.truststore.password";
    public static final String TRUSTSTORE_TYPE = "ui.https.truststore.type";
    public static final String WANT_CLIENT_AUTH = "ui.https.want.client.auth";
    public static final String NEED_CLIENT_AUTH = "ui.https.need.client.auth";
    /**
     * Storm's key (default true in Storm's defaults): with HTTPS on, no plain HTTP on {@code ui.port}. Set to false to
     * keep plain HTTP as well.
     */
    public static final String DISABLE_HTTP_BINDING = "ui.disable.http.binding";
    private static final String DEFAULT_TYPE = "PKCS12";

    /**
     * The settings in {@code conf}, or null when {@value #PORT} is unset or 0 (no HTTPS, as in Storm).
     *
     * @throws IllegalArgumentException in one line naming the key, when a store cannot be opened as configured
     */
    public static TlsSettings from(Map<String, Object> conf) {
        int port = ObjectReader.getInt(conf.get(PORT), 0);
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException(PORT + " must be a port from 1 to 65535 (0 or unset: no HTTPS): " + port);
        }
        if (port == 0) {
            return null;
        }
        String path = text(conf, KEYSTORE_PATH);
        if (path == null) {
            throw new IllegalArgumentException(PORT + " is " + port + " but " + KEYSTORE_PATH + " is not set: name the "
                + "keystore holding the server's key and certificate (for example one made with the JDK's keytool)");
        }
        String password = text(conf, KEYSTORE_PASSWORD);
        String type = typeOf(conf, KEYSTORE_TYPE);
        KeyStore keys = open(Path.of(path), type, password, KEYSTORE_PATH, KEYSTORE_PASSWORD, KEYSTORE_TYPE);
        String keyPassword = text(conf, KEY_PASSWORD) != null ? text(conf, KEY_PASSWORD) : password;
        checkKey(keys, path, keyPassword);
        String trustPath = text(conf, TRUSTSTORE_PATH);
        KeyStore trust = trustPath == null ? null : open(Path.of(trustPath), typeOf(conf, TRUSTSTORE_TYPE),
            text(conf, TRUSTSTORE_PASSWORD), TRUSTSTORE_PATH, TRUSTSTORE_PASSWORD, TRUSTSTORE_TYPE);
        boolean need = ObjectReader.getBoolean(conf.get(NEED_CLIENT_AUTH), false);
        boolean want = ObjectReader.getBoolean(conf.get(WANT_CLIENT_AUTH), false);
        if ((need || want) && trust == null) {
            throw new IllegalArgumentException((need ? NEED_CLIENT_AUTH : WANT_CLIENT_AUTH) + " is true but "
                + TRUSTSTORE_PATH + " is not set: name the truststore whose certificates client certificates must chain to");
        }
        return new TlsSettings(port, keys, keyPassword, trust, need, want);
    }

    /** Whether {@value #DISABLE_HTTP_BINDING} (Storm's default: true) turns plain HTTP off while HTTPS is on. */
    public static boolean plainHttpOff(Map<String, Object> conf) {
        return ObjectReader.getBoolean(conf.get(DISABLE_HTTP_BINDING), true);
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
    private static void checkKey(KeyStore keys, String path, String keyPassword) {
        try {
            for (String alias : Collections.list(keys.aliases())) {
                if (keys.isKeyEntry(alias)) {
                    try {
                        keys.getKey(alias, keyPassword == null ? new char[0] : keyPassword.toCharArray());
                        return;
                    } catch (UnrecoverableKeyException e) {
                        throw new IllegalArgumentException(KEY_PASSWORD + " does not open the key '" + alias + "' in "
                            + path + ": give the key's password (unset, it is " + KEYSTORE_PASSWORD + ")");
                    }
                }
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(KEYSTORE_PATH + ": the keys in " + path + " cannot be read: "
                + e.getMessage());
        }
        throw new IllegalArgumentException(KEYSTORE_PATH + ": " + path + " holds no private key: it needs the server's "
            + "key and certificate (keytool -genkeypair, or openssl pkcs12 -export)");
    }
}
