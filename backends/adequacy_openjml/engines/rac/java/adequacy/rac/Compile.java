package adequacy.rac;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileManager;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import com.sun.source.util.JavacTask;
import com.sun.source.util.TaskEvent;
import com.sun.source.util.TaskListener;

/**
 * The compile-mode worker's one job: spec source in, class bytes (base64) or javac's errors
 * out. It stays warm across specs because javac is the slow part of a fresh spec; it is safe to
 * share because javac never runs the code it compiles (no annotation processing, no plugins),
 * so nothing of one spec can act here. Spec code runs only in an eval-mode JVM of its own.
 *
 * <p>Compiles reuse one javac context ({@code JavacTaskPool}, the JDK's own pool that jshell
 * compiles its snippets with): the symbols of the JDK and of our runtime are read once instead
 * of once per spec (a warm compile of a small spec: about 5 ms instead of 40-70 ms). The pool
 * removes every class the previous unit declared before the next one is compiled, so one
 * spec's classes (and their constants, which javac would inline) cannot be seen from another
 * (tests/security/test_jvm_isolation.py compiles such pairs). What the pool does not remove is
 * a package that a unit declared: the next unit could tell that it exists. So a unit that
 * declares a package retires the context (the next compile starts a clean one), and so does
 * every {@link #REUSES}-th compile, which bounds what the context accumulates (javac's name
 * table only grows). Without the pool (another JDK, no access) every compile gets a fresh
 * context, as before.
 */
final class Compile {
    private Compile() { }

    static final int REUSES = 200;
    static final List<String> OPTIONS = List.of("-classpath", System.getProperty("java.class.path"),
            "-proc:none", "-nowarn", "-Xlint:none", "-g", "-implicit:none");

    static JavaCompiler compiler;
    static StandardJavaFileManager std;
    /** The one file manager every compile goes through (the pooled context keeps the first it
     *  is given); its class output goes to the current compile's own map. */
    static Outputs files;
    static com.sun.tools.javac.api.JavacTaskPool pool;
    static int uses;
    /** Compiles served by a reused context, and contexts retired (tests, benchmarks). */
    static int reused, retired;

    static String init() {
        compiler = ToolProvider.getSystemJavaCompiler();
        if (compiler == null) return "no system Java compiler (a JRE instead of a JDK?)";
        std = compiler.getStandardFileManager(null, Locale.ROOT, StandardCharsets.UTF_8);
        files = new Outputs(std);
        pool = newPool();
        return null;
    }

    static com.sun.tools.javac.api.JavacTaskPool newPool() {
        uses = 0;
        try {
            return new com.sun.tools.javac.api.JavacTaskPool(1);
        } catch (Throwable e) { // not exported to us (a JVM started without --add-exports)
            return null;
        }
    }

    static final class Source extends SimpleJavaFileObject {
        final String code;
        Source(String name, String code) {
            super(URI.create("string:///" + name.replace('.', '/') + Kind.SOURCE.extension), Kind.SOURCE);
            this.code = code;
        }
        @Override public CharSequence getCharContent(boolean ignore) { return code; }
    }

    static final class ClassOut extends SimpleJavaFileObject {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ClassOut(String name) { super(URI.create("mem:///" + name.replace('.', '/') + Kind.CLASS.extension), Kind.CLASS); }
        @Override public OutputStream openOutputStream() { return bytes; }
    }

    static final class Outputs extends ForwardingJavaFileManager<JavaFileManager> {
        Map<String, ClassOut> current = new HashMap<>();
        Outputs(JavaFileManager std) { super(std); }
        @Override public JavaFileObject getJavaFileForOutput(Location loc, String name, JavaFileObject.Kind kind, FileObject sibling) {
            ClassOut o = new ClassOut(name);
            current.put(name, o);
            return o;
        }
    }

    /** Whether the unit declared a package (seen by javac's parser, not by reading text). */
    static final class PackageWatch implements TaskListener {
        boolean declared;
        @Override public void finished(TaskEvent e) {
            if (e.getKind() == TaskEvent.Kind.PARSE && e.getCompilationUnit() != null
                    && e.getCompilationUnit().getPackage() != null) declared = true;
        }
    }

    static Map<String, Object> compile(Map<String, Object> req) {
        Map<String, Object> r = new LinkedHashMap<>();
        String cls = (String) req.get("class");
        String code = (String) req.get("source");
        Map<String, ClassOut> outs = new HashMap<>();
        files.current = outs;
        DiagnosticCollector<JavaFileObject> diags = new DiagnosticCollector<>();
        List<JavaFileObject> units = List.of(new Source(cls, code));
        PackageWatch watch = new PackageWatch();
        long t0 = System.nanoTime();
        boolean ok;
        try {
            if (pool != null) {
                if (uses > 0) reused++;
                uses++;
                ok = pool.getTask(null, files, diags, OPTIONS, null, units, t -> {
                    t.addTaskListener(watch);
                    return t.call();
                });
            } else {
                JavacTask t = (JavacTask) compiler.getTask(null, files, diags, OPTIONS, null, units);
                ok = t.call();
            }
        } finally {
            files.current = new HashMap<>();
            // a declared package outlives the unit in a pooled context: retire it (also after
            // a crash, where the pool drops the context itself)
            if (pool != null && (watch.declared || uses >= REUSES)) { pool = newPool(); retired++; }
        }
        if (!ok) {
            List<Object> errs = new ArrayList<>();
            for (Diagnostic<? extends JavaFileObject> d : diags.getDiagnostics()) {
                if (d.getKind() != Diagnostic.Kind.ERROR) continue;
                Map<String, Object> e = new LinkedHashMap<>();
                e.put("line", d.getLineNumber());
                e.put("message", d.getMessage(Locale.ROOT));
                errs.add(e);
            }
            r.put("ok", false);
            r.put("errors", errs);
            return r;
        }
        boolean checked = Boolean.TRUE.equals(req.get("checked"));
        Map<String, Object> classes = new LinkedHashMap<>();
        for (Map.Entry<String, ClassOut> e : outs.entrySet()) {
            byte[] b = e.getValue().bytes.toByteArray();
            if (checked) {
                try {
                    b = Checked.transform(b);
                } catch (Throwable t) { // no ASM in this JDK, or a class it cannot read
                    List<Object> errs = new ArrayList<>();
                    errs.add(Map.of("line", 0L, "message",
                            "cannot check the reference's arithmetic for overflow: " + t));
                    r.put("ok", false);
                    r.put("errors", errs);
                    return r;
                }
            }
            classes.put(e.getKey(), Base64.getEncoder().encodeToString(b));
        }
        r.put("ok", true);
        r.put("classes", classes);
        r.put("ms", (System.nanoTime() - t0) / 1_000_000.0); // for benchmarks
        return r;
    }

    static Map<String, Object> stats() {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("ok", true);
        r.put("pooled", pool != null);
        r.put("reused", reused);
        r.put("retired", retired);
        return r;
    }
}
