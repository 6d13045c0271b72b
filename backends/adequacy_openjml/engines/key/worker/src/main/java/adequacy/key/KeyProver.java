package adequacy.key;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;

import de.uka.ilkd.key.control.DefaultUserInterfaceControl;
import de.uka.ilkd.key.control.KeYEnvironment;
import de.uka.ilkd.key.java.PositionInfo;
import de.uka.ilkd.key.java.abstraction.KeYJavaType;
import de.uka.ilkd.key.java.declaration.TypeDeclaration;
import de.uka.ilkd.key.logic.op.IObserverFunction;
import de.uka.ilkd.key.logic.op.IProgramMethod;
import de.uka.ilkd.key.parser.Location;
import de.uka.ilkd.key.pp.LogicPrinter;
import de.uka.ilkd.key.proof.Goal;
import de.uka.ilkd.key.proof.Node;
import de.uka.ilkd.key.proof.Proof;
import de.uka.ilkd.key.proof.io.AbstractProblemLoader;
import de.uka.ilkd.key.proof.mgt.SpecificationRepository;
import de.uka.ilkd.key.prover.impl.ApplyStrategyInfo;
import de.uka.ilkd.key.settings.ChoiceSettings;
import de.uka.ilkd.key.settings.PathConfig;
import de.uka.ilkd.key.settings.ProofSettings;
import de.uka.ilkd.key.settings.StrategySettings;
import de.uka.ilkd.key.speclang.Contract;
import de.uka.ilkd.key.speclang.FunctionalOperationContract;
import de.uka.ilkd.key.speclang.PositionedString;
import de.uka.ilkd.key.strategy.StrategyProperties;
import de.uka.ilkd.key.util.ExceptionTools;
import de.uka.ilkd.key.util.KeYResourceManager;
import de.uka.ilkd.key.util.KeYTypeUtil;
import de.uka.ilkd.key.util.MiscTools;
import de.uka.ilkd.key.util.ProofStarter;

import org.key_project.util.collection.ImmutableSet;

/**
 * The KeY side of the worker: load a directory of Java+JML, prove each functional operation
 * contract with KeY's automatic strategy, report one verdict per contract.
 *
 * <p>Every request loads a fresh {@link KeYEnvironment} and disposes it afterwards, and every
 * proof is disposed as soon as its verdict is read, so a long-lived worker does not accumulate
 * proofs. KeY caches its parsed taclet base in a static field, which is what makes the second
 * and later requests fast.
 */
final class KeyProver {

    /** Interrupts a proof that overruns its time budget (KeY checks interrupts between rule steps). */
    private final ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "key-worker-watchdog");
        t.setDaemon(true);
        return t;
    });

    private static Path configDir;

    /** Start-up profile for the ping answer: the warm-up proof's wall time, which includes
     * KeY's one-off taclet parse (what "worker start" mostly is). */
    static long warmupMs;

    KeyProver() throws IOException {
        warmUp();
    }

    /**
     * Process-wide settings that must be in place before any KeY class initialises.
     * KeY reads and writes its settings under ~/.key; a worker must be reproducible and must not
     * depend on (or scribble into) a user's home, so settings files are ignored and the config
     * directory is a private temporary one, removed at exit.
     */
    static void configureEnvironment() throws IOException {
        String level = System.getenv().getOrDefault("KEY_WORKER_LOG", "error");
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", level);
        System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
        System.setProperty("java.awt.headless", "true");
        System.setProperty(PathConfig.DISREGARD_SETTINGS_PROPERTY, "true");
        configDir = Files.createTempDirectory("key-worker-");
        PathConfig.setKeyConfigDir(configDir.toString());
        Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(configDir)));
    }

    static String keyVersion() {
        return KeYResourceManager.getManager().getVersion();
    }

    /**
     * Loads and proves a trivial class once at start-up. Two reasons: KeY only knows its taclet
     * option categories after a first load (so choosing intRules before that would be ignored),
     * and parsing the taclet base (the bulk of the start-up cost) then happens before the first
     * real request instead of inside its time budget.
     */
    private void warmUp() throws IOException {
        Path dir = configDir.resolve("warmup");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("Warmup.java"),
            "class Warmup { /*@ public normal_behavior requires 0 <= x && x < 1000;\n"
                + "  ensures \\result == x + 1; @*/\n"
                + "  static int inc(int x) { return x + 1; } }\n",
            StandardCharsets.UTF_8);
        long start = System.currentTimeMillis();
        ProveRequest req = ProveRequest.from(com.google.gson.JsonParser.parseString(
            "{\"dir\": " + new com.google.gson.JsonPrimitive(dir.toString()) + "}").getAsJsonObject());
        JsonObject answer = prove(req);
        warmupMs = System.currentTimeMillis() - start;
        Worker.log("warm-up " + warmupMs + " ms: " + answer);
        deleteTree(dir);
    }

    JsonObject prove(ProveRequest req) {
        selectTacletOptions(req.intRules);

        WarningCollector ui = new WarningCollector();
        KeYEnvironment<DefaultUserInterfaceControl> env;
        long loadStart = System.nanoTime();
        long loadMs;
        try {
            AbstractProblemLoader loader =
                ui.load(null, req.dir, null, null, null, null, false, null);
            env = new KeYEnvironment<>(ui, loader.getInitConfig(), loader.getProof(),
                loader.getProofScript(), loader.getResult());
            loadMs = (System.nanoTime() - loadStart) / 1_000_000;
        } catch (Exception | LinkageError | AssertionError e) {
            // Java or JML that KeY cannot parse or type-check: one clear message with file:line.
            return Worker.error(describe(e));
        }

        try {
            JsonArray results = new JsonArray();
            for (Contract contract : selectContracts(env, req)) {
                results.add(proveContract(env, contract, req));
            }
            JsonObject answer = Worker.ok();
            answer.add("results", results);
            // Where a request's time goes (benchmarks/key_stubs.py): loading the environment
            // (Java model, JavaRedux, specs) once, then per contract building the obligation
            // ("po_ms") and running the strategy ("millis").
            answer.addProperty("load_ms", loadMs);
            // KeY skips JML it does not support with a warning instead of failing; a proof that
            // closes without the skipped clause is not evidence, so the caller must see them.
            JsonArray warnings = new JsonArray();
            ui.warnings.forEach(warnings::add);
            answer.add("warnings", warnings);
            return answer;
        } finally {
            env.dispose();
        }
    }

    /**
     * Sets KeY's default taclet options (the ones the KeY example and KeY's own tests use) with
     * the requested integer semantics. KeY copies these defaults into each environment at load
     * time, so this must happen before loading.
     */
    private static void selectTacletOptions(String intRules) {
        ChoiceSettings choices = ProofSettings.DEFAULT_SETTINGS.getChoiceSettings();
        Map<String, String> wanted = new HashMap<>(choices.getDefaultChoices());
        wanted.putAll(MiscTools.getDefaultTacletOptions());
        wanted.put("intRules", intRules);
        choices.setDefaultChoices(wanted);
    }

    /** Functional operation contracts of the non-library types, filtered and in a stable order. */
    private static List<Contract> selectContracts(KeYEnvironment<?> env, ProveRequest req) {
        SpecificationRepository specs = env.getSpecificationRepository();
        List<Contract> selected = new ArrayList<>();
        for (KeYJavaType type : env.getJavaInfo().getAllKeYJavaTypes()) {
            if (KeYTypeUtil.isLibraryClass(type) || !declaredIn(type, req.file)) {
                continue;
            }
            for (IObserverFunction target : specs.getContractTargets(type)) {
                if (req.methods != null && !req.methods.contains(methodName(target))) {
                    continue;
                }
                for (Contract contract : specs.getContracts(type, target)) {
                    // Dependency (accessible) contracts are not about what a method returns.
                    if (contract instanceof FunctionalOperationContract) {
                        selected.add(contract);
                    }
                }
            }
        }
        selected.sort(Comparator.comparing((Contract c) -> c.getKJT().getFullName())
            .thenComparing(c -> methodName(c.getTarget()))
            .thenComparing(Contract::getName));
        return selected;
    }

    private static boolean declaredIn(KeYJavaType type, String fileName) {
        if (fileName == null) {
            return true;
        }
        if (!(type.getJavaType() instanceof TypeDeclaration decl)) {
            return false;
        }
        PositionInfo pos = decl.getPositionInfo();
        URI uri = pos.getURI().orElse(pos.getParentClassURI());
        return uri != null && "file".equals(uri.getScheme())
            && Paths.get(uri).getFileName().toString().equals(fileName);
    }

    private static String methodName(IObserverFunction target) {
        return target instanceof IProgramMethod pm ? pm.getName() : target.name().toString();
    }

    private JsonObject proveContract(KeYEnvironment<?> env, Contract contract, ProveRequest req) {
        JsonObject r = new JsonObject();
        r.addProperty("type", contract.getKJT().getName());
        r.addProperty("method", methodName(contract.getTarget()));
        r.addProperty("contract", contract.getDisplayName());
        // The display name repeats across methods ("... operation contract 0"); this one is unique.
        r.addProperty("contract_id", contract.getName());
        long start = System.currentTimeMillis();
        Proof proof = null;
        try {
            proof = env.createProof(contract.createProofObl(env.getInitConfig(), contract));
            configureStrategy(proof, req);
            long poMs = System.currentTimeMillis() - start;
            ApplyStrategyInfo info = runAutoMode(proof, req.timeoutMs);
            long millis = System.currentTimeMillis() - start;
            r.addProperty("po_ms", poMs);
            boolean closed = proof.closed();
            boolean timedOut = !closed
                && (info.reason().startsWith("Interrupted") || millis >= req.timeoutMs);
            r.addProperty("status", closed ? "closed" : timedOut ? "timeout" : "open");
            r.addProperty("open_goals", proof.openGoals().size());
            r.addProperty("steps", info.getAppliedRuleApps());
            r.addProperty("millis", millis);
            r.addProperty("reason", info.reason());
            if (!closed && req.goalDetails > 0) {
                r.add("goals", describeGoals(proof, req.goalDetails));
            }
        } catch (Exception | LinkageError | AssertionError e) {
            // e.g. a proof obligation KeY cannot build for this contract; other contracts go on.
            Worker.log("contract " + contract.getName() + " failed: " + e);
            r.addProperty("status", "error");
            r.addProperty("open_goals", proof == null ? 0 : proof.openGoals().size());
            r.addProperty("steps", 0);
            r.addProperty("millis", System.currentTimeMillis() - start);
            r.addProperty("reason", describe(e));
        } finally {
            if (proof != null) {
                proof.dispose();
            }
        }
        return r;
    }

    /**
     * The first open goals, each with the branch labels on its path from the root (what KeY
     * was proving there: "Post", "Invariant Initially Valid", "Body Preserves Invariant", ...)
     * and its sequent, shortened: enough for a person to see why verification failed.
     */
    private static JsonArray describeGoals(Proof proof, int limit) {
        JsonArray goals = new JsonArray();
        for (Goal goal : proof.openGoals()) {
            if (goals.size() >= limit) {
                break;
            }
            JsonObject g = new JsonObject();
            List<String> labels = new ArrayList<>();
            for (Node n = goal.node(); n != null; n = n.parent()) {
                String label = n.getNodeInfo().getBranchLabel();
                if (label != null && !label.isBlank()) {
                    labels.add(0, label.strip());
                }
            }
            JsonArray path = new JsonArray();
            labels.forEach(path::add);
            g.add("branch", path);
            String sequent;
            try {
                sequent = LogicPrinter.quickPrintSequent(goal.sequent(), proof.getServices());
            } catch (RuntimeException e) {
                sequent = "(could not print: " + e + ")";
            }
            sequent = sequent.replaceAll("\\s+", " ").strip();
            g.addProperty("sequent", sequent.length() > 600 ? sequent.substring(0, 600) + " ..." : sequent);
            goals.add(g);
        }
        return goals;
    }

    /**
     * The automatic strategy the brief asks for: use method contracts for calls, loop
     * invariants for loops, dependency contracts and query treatment on, nonlinear arithmetic on
     * defined operations, default stop mode; step limit as requested.
     */
    private static void configureStrategy(Proof proof, ProveRequest req) {
        StrategySettings settings = proof.getSettings().getStrategySettings();
        StrategyProperties sp = settings.getActiveStrategyProperties();
        sp.setProperty(StrategyProperties.METHOD_OPTIONS_KEY, StrategyProperties.METHOD_CONTRACT);
        sp.setProperty(StrategyProperties.LOOP_OPTIONS_KEY, StrategyProperties.LOOP_INVARIANT);
        sp.setProperty(StrategyProperties.DEP_OPTIONS_KEY, StrategyProperties.DEP_ON);
        sp.setProperty(StrategyProperties.QUERY_OPTIONS_KEY, StrategyProperties.QUERY_ON);
        sp.setProperty(StrategyProperties.NON_LIN_ARITH_OPTIONS_KEY,
            StrategyProperties.NON_LIN_ARITH_DEF_OPS);
        sp.setProperty(StrategyProperties.STOPMODE_OPTIONS_KEY, StrategyProperties.STOPMODE_DEFAULT);
        settings.setActiveStrategyProperties(sp);
        settings.setMaxSteps(req.maxSteps);
        // KeY's own stop condition also watches the clock; the watchdog below is the backstop.
        settings.setTimeout(req.timeoutMs);
        proof.setActiveStrategy(
            proof.getServices().getProfile().getDefaultStrategyFactory().create(proof, sp));
    }

    /**
     * Runs KeY's automatic mode on this thread with a timer that interrupts it. We call
     * {@link ProofStarter} directly rather than ProofControl.startAndWaitForAutoMode: the latter
     * starts a thread and polls it every 100 ms, which would add up to 100 ms to each of
     * thousands of small proofs, and it does not hand back the step count and stop reason.
     */
    private ApplyStrategyInfo runAutoMode(Proof proof, long timeoutMs) {
        Thread self = Thread.currentThread();
        ScheduledFuture<?> timer = watchdog.schedule(self::interrupt, timeoutMs, TimeUnit.MILLISECONDS);
        try {
            ProofStarter starter = new ProofStarter(false);
            starter.init(proof); // takes max steps, timeout and strategy from the proof's settings
            return starter.start();
        } finally {
            timer.cancel(false);
            Thread.interrupted(); // a late timer must not leak into the next proof
        }
    }

    /** "File.java:LINE:COL: message" when KeY knows the location, else the message alone. */
    static String describe(Throwable e) {
        String message = ExceptionTools.getMessage(e);
        if (message == null || message.isBlank()) {
            Throwable root = e;
            while (root.getCause() != null) {
                root = root.getCause();
            }
            message = root.toString();
        }
        // ANTLR repeats the position ("line 3:27 ...") and lists every token it could have
        // accepted (~100 of them); keep the message short enough to show to a person or a model.
        message = message.replaceFirst("^line \\d+:\\d+ ", "")
            .replaceAll("expecting \\{[^}]{200,}\\}", "expecting one of many tokens")
            // KeY appends " at file:/abs/path:L:C"; the prefix below says it without the path.
            .replaceAll(" at file:\\S+$", "")
            // The Java parser (JavaCC) says the same with its own path prefix and token list.
            .replaceFirst("^Error in file \\S+: ", "")
            .replaceFirst("(?s)\\s*Was expecting one of:.*", "");
        try {
            Location loc = ExceptionTools.getLocation(e);
            if (loc != null && loc.getPosition() != null && loc.getPosition().line() > 0) {
                String file = loc.getFileURI().map(u -> {
                    String p = u.getPath();
                    return p == null ? u.toString() : new File(p).getName();
                }).orElse("?");
                return file + ":" + loc.getPosition().line() + ":" + loc.getPosition().column()
                    + ": " + message.strip();
            }
        } catch (Exception ignored) {
            // no usable location: the message alone
        }
        return message.strip();
    }

    /** Keeps KeY's load warnings (e.g. unsupported JML that was skipped) instead of dropping them. */
    private static final class WarningCollector extends DefaultUserInterfaceControl {
        final List<String> warnings = new ArrayList<>();

        @Override
        public void reportWarnings(ImmutableSet<PositionedString> found) {
            for (PositionedString w : found) {
                warnings.add(w.toString());
            }
        }
    }

    private static void deleteTree(Path root) {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // best effort: it is a temporary directory
        }
    }
}
