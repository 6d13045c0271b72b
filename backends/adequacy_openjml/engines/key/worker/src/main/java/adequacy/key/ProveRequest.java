package adequacy.key;

import java.io.File;
import java.util.LinkedHashSet;
import java.util.Set;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

/** The fields of a "prove" request, checked before KeY sees anything. */
final class ProveRequest {
    final File dir;
    /** Simple file name (e.g. "Stub.java") or null: only contracts of types declared there. */
    final String file;
    /** Method names to keep, or null for all. */
    final Set<String> methods;
    final int maxSteps;
    final long timeoutMs;
    /** How many open goals to describe (branch labels and sequent) per proof; 0 = none. */
    int goalDetails;
    /** KeY taclet option for the intRules category, e.g. "intRules:javaSemantics". */
    final String intRules;

    private ProveRequest(File dir, String file, Set<String> methods, int maxSteps, long timeoutMs,
            String intRules) {
        this.dir = dir;
        this.file = file;
        this.methods = methods;
        this.maxSteps = maxSteps;
        this.timeoutMs = timeoutMs;
        this.intRules = intRules;
    }

    static ProveRequest from(JsonObject req) {
        String dirName = string(req, "dir");
        if (dirName == null) {
            throw new Worker.BadRequest("'dir' is required");
        }
        File dir = new File(dirName);
        if (!dir.isAbsolute() || !dir.isDirectory()) {
            throw new Worker.BadRequest("'dir' must be an absolute path to a directory: " + dirName);
        }
        String file = string(req, "file");
        if (file != null && (file.contains("/") || file.contains(File.separator))) {
            throw new Worker.BadRequest("'file' must be a simple file name inside 'dir': " + file);
        }
        Set<String> methods = null;
        if (req.has("methods") && !req.get("methods").isJsonNull()) {
            methods = new LinkedHashSet<>();
            for (JsonElement m : req.getAsJsonArray("methods")) {
                methods.add(m.getAsString());
            }
        }
        long maxSteps = number(req, "max_steps", 10_000);
        long timeoutMs = number(req, "timeout_ms", 20_000);
        if (maxSteps < 1 || maxSteps > Integer.MAX_VALUE || timeoutMs < 1) {
            throw new Worker.BadRequest("'max_steps' and 'timeout_ms' must be positive");
        }
        ProveRequest r = new ProveRequest(dir, file, methods, (int) maxSteps, timeoutMs,
            intRules(string(req, "integer_semantics")));
        long details = number(req, "goal_details", 0);
        if (details < 0 || details > 50) {
            throw new Worker.BadRequest("'goal_details' must be between 0 and 50");
        }
        r.goalDetails = (int) details;
        return r;
    }

    /**
     * Maps the protocol's names to KeY's intRules choices (declared in KeY's
     * proof/rules/optionsDeclarations.key). Default "java": the stubs are about what a Java
     * program returns, and Java's int wraps; KeY's own default ignores overflow, which can prove
     * properties that are false for real Java.
     */
    static String intRules(String semantics) {
        if (semantics == null || semantics.equals("java")) {
            return "intRules:javaSemantics";
        } else if (semantics.equals("ignoring_overflow")) {
            return "intRules:arithmeticSemanticsIgnoringOF";
        } else if (semantics.equals("checking_overflow")) {
            return "intRules:arithmeticSemanticsCheckingOF";
        }
        throw new Worker.BadRequest("'integer_semantics' must be java, ignoring_overflow or "
            + "checking_overflow, not '" + semantics + "'");
    }

    private static String string(JsonObject req, String key) {
        JsonElement e = req.get(key);
        return e == null || e.isJsonNull() ? null : e.getAsString();
    }

    private static long number(JsonObject req, String key, long dflt) {
        JsonElement e = req.get(key);
        return e == null || e.isJsonNull() ? dflt : e.getAsLong();
    }
}
