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

/**
 * The compile-mode worker's one job: spec source in, class bytes (base64) or javac's errors
 * out. It stays warm across specs because javac is the slow part of a fresh spec; it is safe to
 * share because javac never runs the code it compiles (no annotation processing, no plugins),
 * so nothing of one spec can act here. Spec code runs only in an eval-mode JVM of its own.
 */
final class Compile {
    private Compile() { }

    static JavaCompiler compiler;
    static StandardJavaFileManager std;

    static String init() {
        compiler = ToolProvider.getSystemJavaCompiler();
        if (compiler == null) return "no system Java compiler (a JRE instead of a JDK?)";
        std = compiler.getStandardFileManager(null, Locale.ROOT, StandardCharsets.UTF_8);
        return null;
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

    static Map<String, Object> compile(Map<String, Object> req) {
        Map<String, Object> r = new LinkedHashMap<>();
        String cls = (String) req.get("class");
        String code = (String) req.get("source");
        Map<String, ClassOut> outs = new HashMap<>();
        JavaFileManager fm = new ForwardingJavaFileManager<JavaFileManager>(std) {
            @Override public JavaFileObject getJavaFileForOutput(Location loc, String name, JavaFileObject.Kind kind, FileObject sibling) {
                ClassOut o = new ClassOut(name);
                outs.put(name, o);
                return o;
            }
        };
        DiagnosticCollector<JavaFileObject> diags = new DiagnosticCollector<>();
        List<String> opts = List.of("-classpath", System.getProperty("java.class.path"), "-proc:none",
                "-nowarn", "-Xlint:none", "-g", "-implicit:none");
        boolean ok = compiler.getTask(null, fm, diags, opts, null, List.of(new Source(cls, code))).call();
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
        Map<String, Object> classes = new LinkedHashMap<>();
        for (Map.Entry<String, ClassOut> e : outs.entrySet())
            classes.put(e.getKey(), Base64.getEncoder().encodeToString(e.getValue().bytes.toByteArray()));
        r.put("ok", true);
        r.put("classes", classes);
        return r;
    }
}
