package adequacy.rac;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.Array;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.CodeSource;
import java.security.Permission;
import java.security.Permissions;
import java.security.Policy;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A JVM worker of the rac engine: JSON requests on stdin, one JSON reply per line on stdout.
 *
 * <p>Two modes, one per process. {@code compile} turns spec source into class bytes with a warm
 * javac ({@link Compile}) and never runs spec code. {@code eval} (the default) loads the classes
 * of exactly one spec and evaluates its clauses: everything a spec can leave in a JVM (loggers,
 * interned strings, JDK statics, finalizers, a full heap) dies with the process, so the Python
 * side gives every spec origin a JVM of its own, started ahead of time. The spec's classes have
 * no permissions at all: they cannot exit the JVM, touch files or the network, start threads or
 * change the security settings; each evaluation runs in a fresh thread with a time limit.
 */
public final class Worker {
    static final String VERSION = "rac-worker 4";
    static PrintStream out;
    static final ProtectionDomain SPEC_DOMAIN = new ProtectionDomain(
            new CodeSource(null, (java.security.cert.Certificate[]) null), new Permissions());
    static final ThreadGroup EVAL_GROUP = new ThreadGroup("adequacy-eval");
    /** The first permission spec code was refused during the current evaluation. */
    static volatile String violation;
    /** The one spec this JVM serves (eval mode), and its key. */
    static Compiled spec;
    static String specKey;
    /** The id of the request being served (a streamed reply writes several lines with it). */
    static Object requestId;

    static final class Clause {
        Method m; int line;
        Clause(Method m, int line) { this.m = m; this.line = line; }
    }

    static final class Case {
        boolean normal;
        List<Clause> req = new ArrayList<>();
        List<Clause> ens = new ArrayList<>();
    }

    static final class Compiled {
        Class<?> cls;
        List<String> paramTypes = new ArrayList<>();
        List<String> paramNames = new ArrayList<>();
        String resultType;
        String method;
        boolean isStatic;
        int resultParam = -1; // the parameter the method provably returns, or -1
        // receiver fields whose value after the call is part of the output ([jml] post_fields)
        List<String> postFieldTypes = new ArrayList<>();
        List<String> postFieldNames = new ArrayList<>();
        List<Case> cases = new ArrayList<>();
    }

    public static void main(String[] args) throws Exception {
        out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true, "UTF-8");
        System.setOut(System.err); // spec code that prints must not corrupt the protocol
        Locale.setDefault(Locale.ROOT);
        boolean compileMode = args.length > 0 && args[0].equals("compile");
        if (compileMode) {
            String why = Compile.init();
            if (why != null) { reply(Map.of("error", why)); return; }
        } else {
            closeSandbox();
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) continue;
            Map<String, Object> reply;
            Object id = null;
            try {
                @SuppressWarnings("unchecked")
                Map<String, Object> req = (Map<String, Object>) Json.parse(line);
                id = req.get("id");
                requestId = id;
                reply = compileMode ? handleCompile(req) : handle(req);
            } catch (Throwable e) {
                reply = new LinkedHashMap<>();
                reply.put("error", "worker: " + e);
                // after running out of memory or stack nothing in this JVM is trusted
                if (e instanceof VirtualMachineError) { reply.put("exit", true); reply.put("failure", kind(e)); }
            }
            if (id != null && !reply.containsKey("id")) reply.put("id", id);
            reply(reply);
            if (Boolean.TRUE.equals(reply.get("exit"))) Runtime.getRuntime().halt(3);
        }
    }

    /** Warm up what evaluation touches, then install the policy that gives spec code nothing. */
    static void closeSandbox() {
        R.add(1, BigInteger.TWO); R.eq("a", "a"); "Ab".toLowerCase(); "ab".toUpperCase();
        Character.isLetter('a'); Character.toUpperCase('a'); String.format("%d", 1);
        Base64.getDecoder().decode("AA==");
        Policy.setPolicy(new Policy() {
            @Override public boolean implies(ProtectionDomain d, Permission p) { return d != SPEC_DOMAIN; }
        });
        System.setSecurityManager(new SecurityManager() {
            @Override public void checkAccess(Thread t) { checkPermission(new RuntimePermission("modifyThread")); }
            @Override public void checkAccess(ThreadGroup g) { checkPermission(new RuntimePermission("modifyThreadGroup")); }
            @Override public void checkPermission(Permission p) {
                try {
                    super.checkPermission(p);
                } catch (SecurityException e) {
                    // spec code may catch the exception: remember the attempt so the case
                    // becomes unknown whatever the helper does with it
                    if (violation == null) violation = String.valueOf(p);
                    throw e;
                }
            }
        });
    }

    static void reply(Map<String, Object> m) {
        out.println(Json.write(m));
        out.flush();
    }

    static Map<String, Object> handleCompile(Map<String, Object> req) {
        String op = (String) req.get("op");
        Map<String, Object> r = new LinkedHashMap<>();
        switch (op) {
            case "ping": r.put("ok", true); r.put("version", VERSION); r.put("mode", "compile"); return r;
            case "compile": return Compile.compile(req);
            case "stats": return Compile.stats();
            default: r.put("error", "unknown op " + op + " (compile mode)"); return r;
        }
    }

    static Map<String, Object> handle(Map<String, Object> req) throws Exception {
        String op = (String) req.get("op");
        Map<String, Object> r = new LinkedHashMap<>();
        switch (op) {
            case "ping": r.put("ok", true); r.put("version", VERSION); r.put("mode", "eval"); r.put("java", System.getProperty("java.version")); return r;
            case "load": return load(req);
            case "warm": return warm(req);
            case "evals": case "runs": {
                if (spec == null || !String.valueOf(req.get("key")).equals(specKey)) {
                    r.put("error", "this worker has not loaded spec " + req.get("key")); r.put("missing", true); return r;
                }
                return op.equals("runs") ? runs(spec, req) : evals(spec, req);
            }
            case "reload": {
                // the same classes in a fresh class loader: the reference's static state as a
                // fresh JVM would have it, for the next batch of its inputs (same key only)
                if (spec == null || !String.valueOf(req.get("key")).equals(specKey)) {
                    r.put("error", "this worker has not loaded spec " + req.get("key")); r.put("missing", true); return r;
                }
                spec = define(req);
                r.put("ok", true);
                return r;
            }
            case "eval": case "run": {
                if (spec == null || !String.valueOf(req.get("key")).equals(specKey)) {
                    r.put("error", "this worker has not loaded spec " + req.get("key")); r.put("missing", true); return r;
                }
                long timeout = ((Number) req.getOrDefault("timeout_ms", BigInteger.valueOf(10000))).longValue();
                return runGuarded(spec, req, op.equals("run"), timeout);
            }
            default: r.put("error", "unknown op " + op); return r;
        }
    }

    // ------------------------------------------------------------------ loading one spec
    static final class SpecLoader extends ClassLoader {
        final Map<String, byte[]> classes;
        SpecLoader(Map<String, byte[]> classes) { super(Worker.class.getClassLoader()); this.classes = classes; }
        @Override protected Class<?> findClass(String name) throws ClassNotFoundException {
            byte[] b = classes.get(name);
            if (b == null) throw new ClassNotFoundException(name);
            return defineClass(name, b, 0, b.length, SPEC_DOMAIN);
        }
    }

    /** Define the spec's classes (compiled by a compile-mode worker). One spec per JVM: a
     *  second, different key is refused, so no two specs ever share this process. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> load(Map<String, Object> req) throws Exception {
        Map<String, Object> r = new LinkedHashMap<>();
        String key = (String) req.get("key");
        if (specKey != null) {
            if (specKey.equals(key)) { r.put("ok", true); return r; }
            r.put("error", "this worker already serves another spec");
            return r;
        }
        spec = define(req);
        specKey = key;
        r.put("ok", true);
        return r;
    }

    /** Before any spec: run our own warm-up unit through the evaluation path, so that the
     *  spec this spare JVM is handed to does not pay for first-time class loading, linking
     *  and interpretation. Refused once a spec is loaded. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> warm(Map<String, Object> req) throws Exception {
        Map<String, Object> r = new LinkedHashMap<>();
        if (specKey != null) { r.put("error", "warm-up after a spec"); return r; }
        Compiled c = define(req);
        for (Object e : (List<Object>) req.getOrDefault("evals", List.of())) {
            Map<String, Object> ev = (Map<String, Object>) e;
            runGuarded(c, ev, "run".equals(ev.get("op")), 5000);
        }
        violation = null;
        r.put("ok", true);
        return r;
    }

    @SuppressWarnings("unchecked")
    static Compiled define(Map<String, Object> req) throws Exception {
        String cls = (String) req.get("class");
        Map<String, byte[]> bytes = new HashMap<>();
        for (Map.Entry<String, Object> e : ((Map<String, Object>) req.get("classes")).entrySet())
            bytes.put(e.getKey(), Base64.getDecoder().decode((String) e.getValue()));
        SpecLoader loader = new SpecLoader(bytes);
        Compiled c = new Compiled();
        c.cls = Class.forName(cls, false, loader); // no static initialiser runs here
        for (Object p : (List<Object>) req.get("params")) {
            List<Object> pair = (List<Object>) p;
            c.paramTypes.add((String) pair.get(0));
            c.paramNames.add((String) pair.get(1));
        }
        c.resultType = (String) req.get("result");
        c.method = (String) req.get("method");
        c.isStatic = Boolean.TRUE.equals(req.get("static"));
        Object rp = req.get("result_param");
        if (rp instanceof Number) c.resultParam = ((Number) rp).intValue();
        for (Object p : (List<Object>) req.getOrDefault("post_fields", List.of())) {
            List<Object> pair = (List<Object>) p;
            c.postFieldTypes.add((String) pair.get(0));
            c.postFieldNames.add((String) pair.get(1));
        }
        Map<String, Method> byName = new HashMap<>();
        for (Method m : c.cls.getDeclaredMethods()) {
            if (m.getName().startsWith("__adq_")) { m.setAccessible(true); byName.put(m.getName(), m); }
        }
        for (Object o : (List<Object>) req.getOrDefault("cases", List.of())) {
            Map<String, Object> cm = (Map<String, Object>) o;
            Case k = new Case();
            k.normal = Boolean.TRUE.equals(cm.get("normal"));
            for (Object x : (List<Object>) cm.get("req")) k.req.add(clause(byName, (List<Object>) x));
            for (Object x : (List<Object>) cm.get("ens")) k.ens.add(clause(byName, (List<Object>) x));
            c.cases.add(k);
        }
        return c;
    }

    static Clause clause(Map<String, Method> byName, List<Object> x) {
        Method m = byName.get((String) x.get(0));
        if (m == null) throw new IllegalArgumentException("generated method " + x.get(0) + " missing");
        return new Clause(m, ((Number) x.get(1)).intValue());
    }

    // ------------------------------------------------------------------ evaluation
    static final class Outcome {
        String value = "unknown";
        String reason = "";
        /** Why no verdict, when the value is unknown for want of resources or rights. */
        String failure;
        Object output;
    }

    static Map<String, Object> runGuarded(Compiled c, Map<String, Object> req, boolean run, long timeoutMs) throws Exception {
        Outcome res = new Outcome();
        violation = null;
        Thread t = new Thread(EVAL_GROUP, () -> {
            try {
                if (run) runReference(c, req, res);
                else evaluate(c, req, res);
            } catch (Throwable e) {
                res.value = "unknown";
                res.reason = describe(e);
                res.failure = kind(e);
            }
        }, "eval", 64L << 20);
        t.setDaemon(true);
        t.start();
        t.join(timeoutMs);
        Map<String, Object> r = new LinkedHashMap<>();
        if (t.isAlive()) {
            stop(t);
            t.join(2000);
            r.put("value", "unknown");
            r.put("reason", "timeout after " + (timeoutMs / 1000.0) + "s");
            r.put("timeout", true);
            r.put("failure", "timeout");
            if (t.isAlive()) r.put("exit", true); // a runaway thread survives: restart the worker
            return r;
        }
        String refused = violation;
        if (refused != null) {
            // a forbidden action makes the case unknown even when the helper caught it
            r.put("failure", "forbidden");
            if (run) { r.put("ok", false); r.put("reason", "forbidden: " + refused); return r; }
            r.put("value", "unknown");
            r.put("reason", "forbidden: " + refused);
            return r;
        }
        if ("out of memory".equals(res.failure)) {
            // a full heap may have broken JDK state (a class whose initialiser failed): the
            // spec's next case gets a fresh JVM
            r.put("exit", true);
        }
        if (res.failure != null) r.put("failure", res.failure);
        if (run) {
            r.put("ok", res.output != null || "true".equals(res.value));
            if (res.output != null) r.put("output", res.output);
            else r.put("reason", res.reason);
            return r;
        }
        r.put("value", res.value);
        r.put("reason", res.reason);
        return r;
    }

    /** Many cases of the loaded spec in one request, one reply line per case as it finishes
     *  ({@code "i"}: the case's index; the last line says {@code "end"}). It saves a round trip
     *  per case (about 1 ms each, paid by every spec) and keeps what the one-case request
     *  gives the caller: each case has its own time limit, and the stream ends at the first
     *  case that failed for want of resources or rights (the caller's give-up rule counts
     *  those) or needs a fresh JVM ({@code "exit"}), and before a case would start after
     *  {@code budget_ms} (the spec's time budget; the first case always runs). */
    @SuppressWarnings("unchecked")
    static Map<String, Object> evals(Compiled c, Map<String, Object> req) throws Exception {
        List<Object> cases = (List<Object>) req.get("cases");
        long budget = ((Number) req.getOrDefault("budget_ms", BigInteger.valueOf(Long.MAX_VALUE / 4))).longValue();
        long t0 = System.nanoTime();
        for (int k = 0; k < cases.size(); k++) {
            Map<String, Object> ev = (Map<String, Object>) cases.get(k);
            long left = budget - (System.nanoTime() - t0) / 1_000_000;
            long timeout = ((Number) ev.getOrDefault("timeout_ms", BigInteger.valueOf(10000))).longValue();
            if (left < timeout) timeout = Math.max(500, left);
            long s = System.nanoTime();
            Map<String, Object> r = runGuarded(c, ev, false, timeout);
            r.put("i", k);
            r.put("ms", (System.nanoTime() - s) / 1_000_000.0);
            boolean last = k == cases.size() - 1 || r.containsKey("failure") || r.containsKey("exit")
                    || (System.nanoTime() - t0) / 1_000_000 > budget;
            if (last) { r.put("end", true); return r; }
            r.put("id", requestId);
            reply(r);
        }
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("end", true);
        return r;
    }

    /** Many inputs of the loaded reference in one request ({@code "op": "run"} each), one
     *  reply line per input as it finishes ({@code "i"}: its index; the last line says
     *  {@code "end"}): a round trip per input saved, and each input keeps its own time limit.
     *  The stream ends after an input that needs a fresh JVM ({@code "exit"}); the caller
     *  goes on with the next input in a fresh one, as it would after a one-input request. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> runs(Compiled c, Map<String, Object> req) throws Exception {
        List<Object> inputs = (List<Object>) req.get("inputs");
        for (int k = 0; k < inputs.size(); k++) {
            Map<String, Object> ev = (Map<String, Object>) inputs.get(k);
            long timeout = ((Number) ev.getOrDefault("timeout_ms", BigInteger.valueOf(10000))).longValue();
            long s = System.nanoTime();
            Map<String, Object> r = runGuarded(c, ev, true, timeout);
            r.put("i", k);
            r.put("ms", (System.nanoTime() - s) / 1_000_000.0);
            if (k == inputs.size() - 1 || r.containsKey("exit")) { r.put("end", true); return r; }
            r.put("id", requestId);
            reply(r);
        }
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("end", true);
        return r;
    }

    @SuppressWarnings("deprecation")
    static void stop(Thread t) {
        try { t.stop(); } catch (Throwable e) { t.interrupt(); }
    }

    static Throwable unwrap(Throwable e) {
        if (e instanceof InvocationTargetException && e.getCause() != null) e = e.getCause();
        if (e instanceof ExceptionInInitializerError && e.getCause() != null) e = e.getCause();
        return e;
    }

    static String describe(Throwable e) {
        e = unwrap(e);
        if (e instanceof R.Undefined) return "undefined: " + e.getMessage();
        if (e instanceof ArithmeticException) return "undefined: arithmetic exception (" + e.getMessage() + ")";
        if (e instanceof NullPointerException) return "undefined: null dereference";
        if (e instanceof IndexOutOfBoundsException) return "undefined: index out of bounds (" + e.getMessage() + ")";
        if (e instanceof ClassCastException) return "undefined: type error (" + e.getMessage() + ")";
        if (e instanceof SecurityException) return "forbidden: " + e.getMessage();
        if (e instanceof StackOverflowError) return "stack overflow";
        if (e instanceof OutOfMemoryError) return "out of memory";
        if (e instanceof ThreadDeath) return "timeout";
        return "exception: " + e;
    }

    /** The failure kind the give-up rule counts (adequacy.backend.FailureStreak), or null for
     *  an outcome of the language's semantics (an undefined value, an exception). */
    static String kind(Throwable e) {
        e = unwrap(e);
        if (e instanceof OutOfMemoryError) return "out of memory";
        if (e instanceof StackOverflowError) return "stack overflow";
        if (e instanceof SecurityException) return "forbidden";
        if (e instanceof ThreadDeath) return "timeout";
        return null;
    }

    @SuppressWarnings("unchecked")
    static Object[] args(Compiled c, Object input) {
        List<Object> in = (List<Object>) input;
        if (in.size() != c.paramTypes.size()) throw new IllegalArgumentException("expected " + c.paramTypes.size() + " arguments");
        Object[] a = new Object[in.size()];
        for (int k = 0; k < a.length; k++) a[k] = Values.fromJson(in.get(k), c.paramTypes.get(k));
        return a;
    }

    static Object instance(Compiled c) throws Exception {
        if (c.isStatic) return null;
        java.lang.reflect.Constructor<?> k = c.cls.getDeclaredConstructor();
        k.setAccessible(true);
        return k.newInstance();
    }

    static final int TRUE = 1, FALSE = 0, UNKNOWN = 2;
    static String why;
    static String whyKind;

    static int conj(List<Clause> cl, Object[] p, Object[] q, Object res, Object thiz, String what) {
        for (Clause k : cl) {
            Object v;
            try {
                v = k.m.invoke(null, p, q, res, thiz);
            } catch (Throwable e) {
                if (unwrap(e) instanceof OutOfMemoryError) throw (OutOfMemoryError) unwrap(e);
                why = describe(e) + " in " + what + " (line " + k.line + ")";
                whyKind = kind(e);
                return UNKNOWN;
            }
            if (!(v instanceof Boolean)) {
                why = "type error: " + what + " (line " + k.line + ") is not a boolean";
                whyKind = null;
                return UNKNOWN;
            }
            if (!(Boolean) v) { why = what + " (line " + k.line + ") is false"; whyKind = null; return FALSE; }
        }
        return TRUE;
    }

    @SuppressWarnings("unchecked")
    static void evaluate(Compiled c, Map<String, Object> req, Outcome res) throws Exception {
        Object[] p = args(c, req.get("input"));
        Object thiz = instance(c);
        boolean post = "post".equals(req.get("pred"));
        if (!post) {
            if (c.cases.isEmpty()) { res.value = "true"; res.reason = "no spec case: precondition true"; return; }
            String unknown = null;
            for (Case k : c.cases) {
                int v = conj(k.req, p, p, null, thiz, "requires");
                if (v == TRUE) { res.value = "true"; res.reason = "executed"; res.failure = null; return; }
                if (v == UNKNOWN && unknown == null) { unknown = why; res.failure = whyKind; }
            }
            res.value = unknown == null ? "false" : "unknown";
            res.reason = unknown == null ? "no spec case's requires holds" : unknown;
            if (unknown == null) res.failure = null;
            return;
        }
        Map<String, Object> output = (Map<String, Object>) req.get("output");
        // the post-state receiver rides after the parameters: the clauses read a named field
        // after the call as __q[params] (translate.py), built from the case's output
        Object[] q = Arrays.copyOf(p, p.length + (c.postFieldNames.isEmpty() ? 0 : 1));
        if (!c.postFieldNames.isEmpty()) q[p.length] = postState(c, output);
        List<Object> rawIn = (List<Object>) req.get("input");
        for (int k = 0; k < p.length; k++) {
            String name = c.paramNames.get(k);
            if (output != null && output.containsKey(name)) q[k] = Values.fromJson(output.get(name), c.paramTypes.get(k));
            else if (Values.mutable(c.paramTypes.get(k))) {
                // the pre-state must not be disturbed by anything the post-state sees
                p[k] = Values.fromJson(rawIn.get(k), c.paramTypes.get(k));
            }
        }
        Object result = null;
        if (!"void".equals(c.resultType)) {
            if (output != null && output.containsKey("result")) result = Values.fromJson(output.get("result"), c.resultType);
            else if (c.resultParam >= 0 && output != null && output.containsKey(c.paramNames.get(c.resultParam)))
                result = q[c.resultParam]; // the method returns this parameter: the same object
            else throw new IllegalArgumentException("output has no result");
        }
        String unknown = null;
        String unknownKind = null;
        for (Case k : c.cases) {
            if (!k.normal) continue;
            int r = conj(k.req, p, p, null, thiz, "requires");
            String rwhy = why, rkind = whyKind;
            if (r == FALSE) continue;
            int e = conj(k.ens, p, q, result, thiz, "ensures");
            if (r == TRUE && e == FALSE) { res.value = "false"; res.reason = why; return; }
            if (e == TRUE) continue;
            if (unknown == null) {
                unknown = r == UNKNOWN ? rwhy : why;
                unknownKind = r == UNKNOWN ? rkind : whyKind;
            }
        }
        res.value = unknown == null ? "true" : "unknown";
        res.reason = unknown == null ? "executed" : unknown;
        res.failure = unknown == null ? null : unknownKind;
    }

    /** A fresh receiver whose named fields hold the case's output values (the post-state the
     *  clauses read); a field the output lacks is an error of the case, never the
     *  constructor's value. */
    static Object postState(Compiled c, Map<String, Object> output) throws Exception {
        Object that = instance(c);
        for (int k = 0; k < c.postFieldNames.size(); k++) {
            String name = c.postFieldNames.get(k);
            if (output == null || !output.containsKey(name)) throw new IllegalArgumentException("output has no field " + name);
            java.lang.reflect.Field f = c.cls.getDeclaredField(name);
            f.setAccessible(true);
            f.set(that, Values.fromJson(output.get(name), c.postFieldTypes.get(k)));
        }
        return that;
    }

    static void runReference(Compiled c, Map<String, Object> req, Outcome res) throws Exception {
        if (Boolean.TRUE.equals(req.get("receiver"))) { receiverState(c, res); return; }
        Object[] a = args(c, req.get("input"));
        Method target = null;
        for (Method m : c.cls.getDeclaredMethods()) {
            if (m.getName().equals(c.method) && sameParameters(m, c.paramTypes)) { target = m; break; }
        }
        if (target == null) throw new IllegalArgumentException("method " + c.method + c.paramTypes + " not found");
        target.setAccessible(true);
        Overflow.reset(); // the constructor is the reference's code too
        Object thiz = instance(c);
        Object ret;
        try {
            ret = target.invoke(thiz, a);
        } catch (InvocationTargetException e) {
            res.reason = "reference threw " + (Overflow.seen() && !(e.getCause() instanceof Overflow)
                    ? "adequacy.rac.Overflow: caught by the reference, which then threw " + e.getCause()
                    : e.getCause());
            return;
        }
        if (Overflow.seen()) { // the reference caught its own overflow and returned
            res.reason = "reference threw adequacy.rac.Overflow: caught by the reference";
            return;
        }
        Map<String, Object> o = new LinkedHashMap<>();
        if (!"void".equals(c.resultType)) o.put("result", Values.toJson(ret, c.resultType));
        for (int k = 0; k < a.length; k++) {
            if (Values.mutable(c.paramTypes.get(k))) o.put(c.paramNames.get(k), Values.toJson(a[k], c.paramTypes.get(k)));
        }
        for (int k = 0; k < c.postFieldNames.size(); k++) {
            java.lang.reflect.Field f = c.cls.getDeclaredField(c.postFieldNames.get(k));
            f.setAccessible(true);
            o.put(c.postFieldNames.get(k), Values.toJson(f.get(thiz), c.postFieldTypes.get(k)));
        }
        res.output = o;
    }

    /** The receiver every case starts from (the no-argument constructor's object): its
     *  declared instance fields of primitive type by value, and those holding null. A prover
     *  that reads fields in the pre-state needs them (the KeY stubs pin them); other fields
     *  are left out, unconstrained there. */
    static void receiverState(Compiled c, Outcome res) throws Exception {
        Object thiz = instance(c);
        Map<String, Object> fields = new LinkedHashMap<>();
        List<Object> nulls = new ArrayList<>();
        if (thiz != null) {
            for (java.lang.reflect.Field f : c.cls.getDeclaredFields()) {
                if (java.lang.reflect.Modifier.isStatic(f.getModifiers()) || f.isSynthetic()) continue;
                f.setAccessible(true);
                Object v = f.get(thiz);
                Class<?> t = f.getType();
                if (t.isPrimitive()) fields.put(f.getName(), Values.toJson(v, t.getName()));
                else if (v == null) nulls.add(f.getName());
            }
        }
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("fields", fields);
        o.put("nulls", nulls);
        res.output = o;
    }

    /** Whether {@code m}'s parameters are the declared ones, by their erased simple names: the
     *  method under specification is chosen by its whole signature, never by name and arity
     *  alone ({@code Perimeter(short)} beside {@code Perimeter(long)}). */
    static boolean sameParameters(Method m, List<String> declared) {
        Class<?>[] ps = m.getParameterTypes();
        if (ps.length != declared.size() || m.isSynthetic() || m.isBridge()) return false;
        for (int k = 0; k < ps.length; k++) {
            if (!ps[k].getSimpleName().equals(simpleName(declared.get(k)))) return false;
        }
        return true;
    }

    /** {@code java.util.List<int[]>[]} -> {@code List[]}, {@code int...} -> {@code int[]}. */
    static String simpleName(String t) {
        StringBuilder b = new StringBuilder();
        int depth = 0;
        for (char ch : t.toCharArray()) {
            if (ch == '<') depth++;
            else if (ch == '>') depth--;
            else if (depth == 0 && !Character.isWhitespace(ch)) b.append(ch);
        }
        String s = b.toString();
        if (s.endsWith("...")) s = s.substring(0, s.length() - 3) + "[]";
        int br = s.indexOf('[');
        String base = br < 0 ? s : s.substring(0, br);
        String dims = br < 0 ? "" : s.substring(br);
        int d = base.lastIndexOf('.');
        return (d < 0 ? base : base.substring(d + 1)) + dims;
    }

    /** JSON values to and from Java values of declared Java types. */
    static final class Values {
        static String erase(String t) {
            int i = t.indexOf('<');
            String base = i < 0 ? t : t.substring(0, i);
            int d = base.lastIndexOf('.');
            return d < 0 ? base : base.substring(d + 1);
        }

        static List<String> typeArgs(String t) {
            int i = t.indexOf('<');
            List<String> out = new ArrayList<>();
            if (i < 0) return out;
            String inner = t.substring(i + 1, t.lastIndexOf('>'));
            int depth = 0, st = 0;
            for (int k = 0; k < inner.length(); k++) {
                char ch = inner.charAt(k);
                if (ch == '<') depth++;
                else if (ch == '>') depth--;
                else if (ch == ',' && depth == 0) { out.add(inner.substring(st, k).trim()); st = k + 1; }
            }
            out.add(inner.substring(st).trim());
            return out;
        }

        static boolean mutable(String t) {
            t = t.trim();
            if (t.endsWith("[]")) return true;
            String b = erase(t);
            return b.endsWith("List") || b.endsWith("Set") || b.endsWith("Map") || b.equals("Collection")
                    || b.equals("StringBuilder") || b.equals("Deque") || b.equals("Queue") || b.equals("Stack");
        }

        static Class<?> classOf(String t) {
            t = t.trim();
            if (t.endsWith("[]")) return Array.newInstance(classOf(t.substring(0, t.length() - 2)), 0).getClass();
            switch (erase(t)) {
                case "int": return int.class; case "long": return long.class; case "short": return short.class;
                case "byte": return byte.class; case "char": return char.class; case "boolean": return boolean.class;
                case "double": return double.class; case "float": return float.class;
                case "Integer": return Integer.class; case "Long": return Long.class; case "Short": return Short.class;
                case "Byte": return Byte.class; case "Character": return Character.class; case "Boolean": return Boolean.class;
                case "Double": return Double.class; case "Float": return Float.class; case "String": return String.class;
                case "List": case "ArrayList": case "LinkedList": return List.class;
                case "Set": case "HashSet": case "TreeSet": case "LinkedHashSet": return java.util.Set.class;
                case "Map": case "HashMap": case "TreeMap": case "LinkedHashMap": return Map.class;
                default: return Object.class;
            }
        }

        static double dbl(Object j) {
            if (j instanceof String) {
                switch ((String) j) {
                    case "NaN": return Double.NaN;
                    case "Infinity": return Double.POSITIVE_INFINITY;
                    case "-Infinity": return Double.NEGATIVE_INFINITY;
                    default: throw new IllegalArgumentException("not a number: " + j);
                }
            }
            return ((Number) j).doubleValue();
        }

        @SuppressWarnings("unchecked")
        static Object fromJson(Object j, String type) {
            type = type.trim();
            if (type.endsWith("[]")) {
                if (j == null) return null;
                String el = type.substring(0, type.length() - 2);
                List<Object> l;
                if (j instanceof String && el.equals("char")) return ((String) j).toCharArray();
                l = (List<Object>) j;
                Object a = Array.newInstance(classOf(el), l.size());
                for (int k = 0; k < l.size(); k++) Array.set(a, k, fromJson(l.get(k), el));
                return a;
            }
            String b = erase(type);
            boolean prim = Character.isLowerCase(b.charAt(0)) && !b.equals("var");
            if (j == null) {
                if (prim) throw new IllegalArgumentException("null for primitive " + type);
                return null;
            }
            switch (b) {
                case "int": case "Integer": return ((BigInteger) j).intValueExact();
                case "long": case "Long": return ((BigInteger) j).longValueExact();
                case "short": case "Short": return ((BigInteger) j).shortValueExact();
                case "byte": case "Byte": return ((BigInteger) j).byteValueExact();
                case "BigInteger": return j;
                case "char": case "Character": {
                    String s = (String) j;
                    if (s.length() != 1) throw new IllegalArgumentException("char must be one character");
                    return s.charAt(0);
                }
                case "boolean": case "Boolean": return (Boolean) j;
                case "double": case "Double": return dbl(j);
                case "float": case "Float": return (float) dbl(j);
                case "String": case "CharSequence": return (String) j;
                case "List": case "ArrayList": case "LinkedList": case "Collection": case "Iterable": {
                    String el = typeArgs(type).isEmpty() ? "Object" : typeArgs(type).get(0);
                    List<Object> out = b.equals("LinkedList") ? new java.util.LinkedList<>() : new ArrayList<>();
                    for (Object o : (List<Object>) j) out.add(fromJson(o, el));
                    return out;
                }
                case "Set": case "HashSet": case "LinkedHashSet": case "TreeSet": {
                    String el = typeArgs(type).isEmpty() ? "Object" : typeArgs(type).get(0);
                    Collection<Object> out = b.equals("TreeSet") ? new TreeSet<>() : new LinkedHashSet<>();
                    for (Object o : (List<Object>) j) out.add(fromJson(o, el));
                    return out;
                }
                case "Map": case "HashMap": case "LinkedHashMap": case "TreeMap": {
                    List<String> ta = typeArgs(type);
                    String kt = ta.size() == 2 ? ta.get(0) : "Object", vt = ta.size() == 2 ? ta.get(1) : "Object";
                    Map<Object, Object> out = b.equals("TreeMap") ? new TreeMap<>() : new LinkedHashMap<>();
                    for (Object o : (List<Object>) j) {
                        List<Object> kv = (List<Object>) o;
                        out.put(fromJson(kv.get(0), kt), fromJson(kv.get(1), vt));
                    }
                    return out;
                }
                case "Object": return j instanceof BigInteger && ((BigInteger) j).bitLength() < 32 ? ((BigInteger) j).intValue() : j;
                default: throw new IllegalArgumentException("unsupported Java type " + type);
            }
        }

        static Object toJson(Object v, String type) {
            if (v == null) return null;
            if (v.getClass().isArray()) {
                String el = type.endsWith("[]") ? type.substring(0, type.length() - 2) : "Object";
                List<Object> l = new ArrayList<>();
                for (int k = 0; k < Array.getLength(v); k++) l.add(toJson(Array.get(v, k), el));
                return l;
            }
            if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte)
                return BigInteger.valueOf(((Number) v).longValue());
            if (v instanceof Character) return String.valueOf(v);
            if (v instanceof Float) return ((Float) v).doubleValue();
            if (v instanceof Map) {
                List<String> ta = typeArgs(type);
                List<Object> l = new ArrayList<>();
                for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet())
                    l.add(List.of(toJson(e.getKey(), ta.size() == 2 ? ta.get(0) : "Object"),
                            toJson(e.getValue(), ta.size() == 2 ? ta.get(1) : "Object")));
                return l;
            }
            if (v instanceof Collection) {
                List<String> ta = typeArgs(type);
                List<Object> l = new ArrayList<>();
                for (Object o : (Collection<?>) v) l.add(toJson(o, ta.isEmpty() ? "Object" : ta.get(0)));
                return l;
            }
            return v;
        }
    }
}
