package io.microburst.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.storm.Config;
import org.apache.storm.drpc.DRPCInvocationsClient;
import org.apache.storm.generated.AuthorizationException;
import org.apache.storm.generated.DRPCExceptionType;
import org.apache.storm.generated.DRPCExecutionException;
import org.apache.storm.generated.DRPCRequest;
import org.apache.storm.security.auth.IAuthorizer;
import org.apache.storm.security.auth.ReqContext;
import org.apache.storm.security.auth.authorizer.DRPCAuthorizerBase;
import org.apache.storm.utils.DRPCClient;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server's DRPC service without a topology: a client's call answered through the invocations service (what a
 * DRPCSpout and ReturnResults do over Thrift), {@code drpc.authorizer} refusing a function on every path, what is
 * refused on a non-loopback address.
 */
@Timeout(120)
class ServerDrpcTest {
    @TempDir
    Path dir;

    private Map<String, Object> conf(Map<String, Object> extra) {
        Map<String, Object> conf = new HashMap<>();
        conf.put(ServerConfig.DIR, dir.toString());
        conf.put(Config.NIMBUS_THRIFT_PORT, 0);
        conf.put(ServerConfig.UI_PORT, 0);
        conf.put(ServerConfig.DRPC, true);
        conf.put(Config.DRPC_PORT, 0);
        conf.put(Config.DRPC_INVOCATIONS_PORT, 0);
        conf.put(ServerConfig.DRPC_HTTP_PORT, 0);
        conf.putAll(extra);
        return conf;
    }

    /** Refuses every DRPC operation on the function "secret". */
    public static final class NoSecrets implements IAuthorizer {
        @Override
        public void prepare(Map<String, Object> conf) {
        }

        @Override
        public boolean permit(ReqContext context, String operation, Map<String, Object> params) {
            return !"secret".equals(params.get(DRPCAuthorizerBase.FUNCTION_NAME));
        }
    }

    /** Fetches one request for {@code function}, waiting for it to arrive, and returns it. */
    private static DRPCRequest fetch(DRPCInvocationsClient invocations, String function) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() - deadline < 0) {
            DRPCRequest request = invocations.fetchRequest(function);
            if (!request.get_request_id().isEmpty()) {
                return request;
            }
            Thread.sleep(5);
        }
        throw new AssertionError("no request for " + function + " arrived");
    }

    @Test
    void aCallIsAnsweredThroughTheInvocationsServiceAndTheAuthorizerIsAsked() throws Exception {
        try (MicroburstServer server = MicroburstServer.start(conf(Map.of(ServerConfig.DRPC_AUTHORIZER,
            NoSecrets.class.getName())))) {
            assertEquals(server.drpcPort(), ((Number) server.conf().get(Config.DRPC_PORT)).intValue(),
                "the server's configuration names the ports it serves on");
            assertEquals(java.util.List.of("127.0.0.1"), server.conf().get(Config.DRPC_SERVERS));
            Map<String, Object> clientConf = Utils.readStormConfig();
            try (DRPCClient client = new DRPCClient(clientConf, "127.0.0.1", server.drpcPort());
                 DRPCInvocationsClient invocations = new DRPCInvocationsClient(clientConf, "127.0.0.1",
                     server.drpcInvocationsPort())) {
                CompletableFuture<String> call = CompletableFuture.supplyAsync(() -> {
                    try {
                        return client.execute("upper", "abc");
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                });
                DRPCRequest request = fetch(invocations, "upper");
                assertEquals("abc", request.get_func_args());
                invocations.result(request.get_request_id(), request.get_func_args().toUpperCase());
                assertEquals("ABC", call.get(60, TimeUnit.SECONDS));

                CompletableFuture<DRPCExecutionException> failing = CompletableFuture.supplyAsync(
                    () -> assertThrows(DRPCExecutionException.class, () -> client.execute("upper", "bad")));
                invocations.failRequest(fetch(invocations, "upper").get_request_id());
                DRPCExecutionException failed = failing.get(60, TimeUnit.SECONDS);
                assertEquals(DRPCExceptionType.FAILED_REQUEST, failed.get_type());

                AuthorizationException refused = assertThrows(AuthorizationException.class,
                    () -> client.execute("secret", "x"));
                assertTrue(refused.get_msg().contains("'secret'"), refused.get_msg());
                assertThrows(AuthorizationException.class, () -> invocations.fetchRequest("secret"));
            }
            HttpResponse<String> web = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + server.drpcHttpPort() + "/drpc/secret/x")).build(),
                HttpResponse.BodyHandlers.ofString());
            assertEquals(401, web.statusCode(), web.body());
        }
    }

    @Test
    void drpcOnANonLoopbackAddressNeedsAuthenticatingDrpcTransports() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> MicroburstServer.start(conf(Map.of(ServerConfig.BIND, "0.0.0.0", Config.NIMBUS_THRIFT_TRANSPORT_PLUGIN,
                "org.apache.storm.security.auth.digest.DigestSaslTransportPlugin"))));
        assertTrue(refused.getMessage().startsWith("Refusing to serve DRPC on 0.0.0.0 without authentication"),
            refused.getMessage());
    }
}
