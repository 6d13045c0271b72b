import java.io.File;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;

/** Java code that escaped the JML front end and the worker's SecurityManager, on purpose: each
 *  mode tries one hostile action and prints what happened ("OK ..." means it succeeded). */
public class Hostile {
    static void report(String what, boolean ok, String detail) {
        System.out.println((ok ? "OK " : "DENIED ") + what + " " + detail);
        System.out.flush();
    }

    public static void main(String[] a) throws Exception {
        String mode = a[0], token = a[1];
        switch (mode) {
            case "read":
                for (int i = 2; i < a.length; i++) {
                    try { report("read", true, a[i] + " " + Files.readAllBytes(Path.of(a[i])).length); }
                    catch (Exception e) { report("read", false, a[i] + " " + e); }
                }
                break;
            case "write":
                for (int i = 2; i < a.length; i++) {
                    Path p = Path.of(a[i], token);
                    try { Files.writeString(p, "x"); report("write", true, p.toString()); }
                    catch (Exception e) { report("write", false, p + " " + e); }
                }
                break;
            case "exec":
                for (int i = 2; i < a.length; i++) {
                    try { new ProcessBuilder(a[i], "-c", "echo hi").start().waitFor(); report("exec", true, a[i]); }
                    catch (Exception e) { report("exec", false, a[i] + " " + e); }
                }
                break;
            case "loader": {
                // a program written to the private /tmp, started through the dynamic loader;
                // FORK/VFORK exec the target directly (the default goes through jspawnhelper)
                System.setProperty("jdk.lang.Process.launchMechanism", a[2]);
                String copy = "/tmp/" + token;
                Files.copy(Path.of(a[4]), Path.of(copy));
                new File(copy).setExecutable(true);
                for (String[] cmd : new String[][] {{a[3], copy}, {copy}}) {
                    try {
                        Process pr = new ProcessBuilder(cmd).redirectErrorStream(true).start();
                        String out = new String(pr.getInputStream().readAllBytes()).trim();
                        pr.waitFor();
                        report("exec", true, String.join(" ", cmd) + " " + out);
                    } catch (Exception e) { report("exec", false, String.join(" ", cmd) + " " + e); }
                }
                break;
            }
            case "net":
                for (int i = 2; i < a.length; i++) {
                    String[] hp = a[i].split(":");
                    try (Socket s = new Socket()) {
                        s.connect(new InetSocketAddress(hp[0], Integer.parseInt(hp[1])), 2000);
                        report("connect", true, a[i]);
                    } catch (Exception e) { report("connect", false, a[i] + " " + e); }
                }
                break;
            case "spawn": {
                // a second JVM (the JDK's own launcher is visible) that sleeps, then we hang
                String java = ProcessHandle.current().info().command().orElse("java");
                String cp = System.getProperty("java.class.path");
                try { new ProcessBuilder(java, "-cp", cp, "Hostile", "sleep", token).start(); report("spawn", true, ""); }
                catch (Exception e) { report("spawn", false, e.toString()); }
                Thread.sleep(1_000_000);
                break;
            }
            case "sleep": Thread.sleep(1_000_000); break;
            default: throw new IllegalArgumentException(mode);
        }
    }
}
