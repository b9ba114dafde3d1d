package io.microburst.it.durable;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * A real Kafka broker (the Kafka project's own {@code kafka.Kafka}, KRaft mode: one process is controller and broker)
 * on 127.0.0.1 free ports, in a JVM of its own so that killing the topology's process leaves it running. Its storage
 * is formatted first with a fresh cluster id by the Kafka project's {@code kafka.tools.StorageTool}.
 */
public final class KafkaBroker implements AutoCloseable {
    private static final long START_TIMEOUT_SECONDS = 120;

    private final JvmProcess process;
    private final String bootstrap;

    private KafkaBroker(JvmProcess process, String bootstrap) {
        this.process = process;
        this.bootstrap = bootstrap;
    }

    public static KafkaBroker start(Path dir) throws Exception {
        int brokerPort = freePort();
        int controllerPort = freePort();
        Path logs = Files.createDirectories(dir.resolve("kafka-logs"));
        Path properties = dir.resolve("server.properties");
        Files.writeString(properties, String.join("\n",
                "process.roles=broker,controller",
                "node.id=1",
                "controller.quorum.voters=1@127.0.0.1:" + controllerPort,
                "listeners=PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort,
                "advertised.listeners=PLAINTEXT://127.0.0.1:" + brokerPort,
                "controller.listener.names=CONTROLLER",
                "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                "inter.broker.listener.name=PLAINTEXT",
                "log.dirs=" + logs,
                "num.partitions=1",
                "offsets.topic.replication.factor=1",
                "offsets.topic.num.partitions=1",
                "transaction.state.log.replication.factor=1",
                "transaction.state.log.min.isr=1",
                "share.coordinator.state.topic.replication.factor=1",
                "share.coordinator.state.topic.min.isr=1",
                "group.initial.rebalance.delay.ms=0",
                "log.flush.interval.messages=1",
                ""), StandardCharsets.UTF_8);
        List<String> jvm = List.of("-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
        try (JvmProcess format = JvmProcess.start(dir.resolve("kafka-format.txt"), jvm, "kafka.tools.StorageTool",
                List.of("format", "-t", org.apache.kafka.common.Uuid.randomUuid().toString(),
                        "-c", properties.toString()))) {
            int exit = format.waitFor(START_TIMEOUT_SECONDS);
            if (exit != 0) {
                throw new IllegalStateException("formatting Kafka storage failed (" + exit + ")\n" + format.output());
            }
        }
        JvmProcess broker = JvmProcess.start(dir.resolve("kafka-broker.txt"), List.of("-Xmx768m"), "kafka.Kafka",
                List.of(properties.toString()));
        KafkaBroker started = new KafkaBroker(broker, "127.0.0.1:" + brokerPort);
        try {
            started.awaitReady();
        } catch (Exception | AssertionError e) {
            String output = broker.output();
            started.close();
            throw new IllegalStateException("the Kafka broker did not start\n" + output, e);
        }
        return started;
    }

    private void awaitReady() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_SECONDS);
        while (true) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the broker exited");
            }
            try (Admin admin = admin()) {
                admin.describeCluster().nodes().get(5, TimeUnit.SECONDS);
                return;
            } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
            }
        }
    }

    public String bootstrap() {
        return bootstrap;
    }

    public Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000, AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10000));
    }

    public void createTopic(String topic, int partitions) throws Exception {
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(60, TimeUnit.SECONDS);
        }
    }

    public Properties producerProperties() {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("acks", "all");
        p.put("enable.idempotence", "true");
        p.put("key.serializer", "org.apache.kafka.common.serialization.StringSerializer");
        p.put("value.serializer", "org.apache.kafka.common.serialization.StringSerializer");
        return p;
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.stop(30);
    }
}
