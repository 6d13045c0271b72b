package adequacy.key;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;

/**
 * Persistent KeY worker: one JSON request per stdin line, one JSON answer per stdout line.
 *
 * <p>Why a persistent process: starting the JVM and parsing KeY's taclet base costs seconds,
 * a simple proof costs a fraction of that, so the Python side keeps one worker alive and sends
 * every stub through it. Why stdout is guarded: the caller reads stdout as the protocol, and KeY
 * (or a library under it) may print; so the real stdout is kept for answers only and
 * {@code System.out} is pointed at stderr before KeY is touched.
 */
public final class Worker {

    /** Never escape '<' '>' '=' (Gson's HTML-safe default): answers stay readable in logs. */
    private static final Gson GSON = new GsonBuilder().disableHtmlEscaping().serializeNulls().create();

    /** Milliseconds from JVM start to the first request (reported by ping). */
    private static long readyMs;

    private Worker() {
    }

    public static void main(String[] args) throws IOException {
        // Claim the real stdout, then send everything else that prints to stderr.
        PrintStream protocol = new PrintStream(new FileOutputStream(FileDescriptor.out), true,
            StandardCharsets.UTF_8);
        System.setOut(System.err);

        // Must run before any KeY class initialises its loggers or settings.
        KeyProver.configureEnvironment();
        KeyProver prover = new KeyProver();
        readyMs = System.currentTimeMillis()
            - java.lang.management.ManagementFactory.getRuntimeMXBean().getStartTime();
        log("KeY worker ready (" + KeyProver.keyVersion() + ", Java " + Runtime.version() + ") "
            + readyMs + " ms after JVM start");

        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) { // EOF on stdin is the shutdown signal
            if (line.isBlank()) {
                continue;
            }
            JsonObject answer = handle(prover, line);
            protocol.println(GSON.toJson(answer));
            protocol.flush();
            if (answer.has("fatal")) {
                // After OutOfMemoryError the JVM state is not trustworthy: the caller restarts us.
                System.exit(3);
            }
        }
    }

    /** Turns one request line into one answer object; never throws. */
    static JsonObject handle(KeyProver prover, String line) {
        // Phase 1: read the request. Anything wrong here is the caller's fault.
        JsonElement id = null;
        String op;
        ProveRequest prove = null;
        try {
            JsonObject req = JsonParser.parseString(line).getAsJsonObject();
            id = req.get("id");
            op = req.has("op") ? req.get("op").getAsString() : "";
            if (op.equals("prove")) {
                prove = ProveRequest.from(req);
            }
        } catch (BadRequest | JsonParseException | IllegalStateException
                | UnsupportedOperationException | ClassCastException e) {
            // Not JSON, not an object, a missing field or a field of the wrong JSON type.
            return withId(error("bad request: " + e.getMessage()), id);
        }

        // Phase 2: do it. Anything that escapes KeY here is reported, and the worker goes on.
        try {
            JsonObject answer;
            switch (op) {
                case "ping":
                    answer = ok();
                    answer.addProperty("key_version", KeyProver.keyVersion());
                    answer.addProperty("java_version", Runtime.version().toString());
                    // KeY 2.12.3 keeps a few MB per loaded environment reachable even after
                    // dispose(); the caller watches this and restarts the worker when it is high.
                    Runtime rt = Runtime.getRuntime();
                    answer.addProperty("heap_used_mb", (rt.totalMemory() - rt.freeMemory()) >> 20);
                    answer.addProperty("heap_max_mb", rt.maxMemory() >> 20);
                    answer.addProperty("ready_ms", readyMs);
                    answer.addProperty("warmup_ms", KeyProver.warmupMs);
                    // CPU of the whole JVM (JIT and GC threads included) to this ping: on a
                    // shared machine the wall time of a start says more about the load.
                    answer.addProperty("cpu_ms", processCpuMs());
                    break;
                case "prove":
                    answer = prover.prove(prove);
                    break;
                default:
                    answer = error("unknown op: '" + op + "'");
            }
            return withId(answer, id);
        } catch (RuntimeException | LinkageError | AssertionError | StackOverflowError e) {
            log("request failed: " + e);
            return withId(error("internal error: " + e), id);
        } catch (OutOfMemoryError e) {
            JsonObject answer = withId(error("out of memory"), id);
            answer.addProperty("fatal", true);
            return answer;
        }
    }

    /** CPU milliseconds this JVM has used, all threads; -1 where the JVM cannot say. */
    static long processCpuMs() {
        java.lang.management.OperatingSystemMXBean os =
            java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            long ns = sun.getProcessCpuTime();
            return ns < 0 ? -1 : ns / 1_000_000;
        }
        return -1;
    }

    static JsonObject ok() {
        JsonObject o = new JsonObject();
        o.addProperty("ok", true);
        return o;
    }

    static JsonObject error(String message) {
        JsonObject o = new JsonObject();
        o.addProperty("ok", false);
        o.addProperty("error", message);
        return o;
    }

    private static JsonObject withId(JsonObject answer, JsonElement id) {
        answer.add("id", id);
        return answer;
    }

    static void log(String message) {
        System.err.println("[key-worker] " + message);
    }

    /** A request the worker refuses before touching KeY (missing or ill-typed field). */
    static final class BadRequest extends RuntimeException {
        BadRequest(String message) {
            super(message);
        }
    }
}
