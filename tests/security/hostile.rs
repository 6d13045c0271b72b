// Native code that escaped the front end, on purpose: each mode tries one hostile action and
// prints what happened, one line per attempt ("OK ..." means the action succeeded).
use std::io::Write;
use std::net::TcpStream;
use std::os::unix::process::CommandExt;
use std::process::Command;
use std::time::Duration;

fn report(what: &str, ok: bool, detail: String) {
    println!("{} {} {}", if ok { "OK" } else { "DENIED" }, what, detail);
    let _ = std::io::stdout().flush();
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mode = args[1].as_str();
    let token = args.get(2).cloned().unwrap_or_default();
    match mode {
        "read" => {
            for p in &args[3..] {
                match std::fs::read(p) {
                    Ok(b) => report("read", true, format!("{} {}", p, b.len())),
                    Err(e) => report("read", false, format!("{} {}", p, e)),
                }
            }
        }
        "write" => {
            for dir in &args[3..] {
                let p = format!("{}/{}", dir, token);
                match std::fs::write(&p, b"x") {
                    Ok(_) => report("write", true, p),
                    Err(e) => report("write", false, format!("{} {}", p, e)),
                }
            }
        }
        "exec" => {
            for prog in &args[3..] {
                match Command::new(prog).arg("-c").arg("echo hi").output() {
                    Ok(o) => report("exec", true, format!("{} {:?}", prog, o.status)),
                    Err(e) => report("exec", false, format!("{} {}", prog, e)),
                }
            }
        }
        "selfcopy" => {
            // a program of its own, written to the private /tmp, then executed
            let me = std::env::current_exe().unwrap();
            let copy = format!("/tmp/{}", token);
            std::fs::copy(&me, &copy).unwrap();
            std::fs::set_permissions(&copy, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
            match Command::new(&copy).arg("read").arg(&token).output() {
                Ok(o) => report("exec", true, format!("{} {:?}", copy, o.status)),
                Err(e) => report("exec", false, format!("{} {}", copy, e)),
            }
        }
        "net" => {
            for addr in &args[3..] {
                let a = addr.parse().unwrap();
                match TcpStream::connect_timeout(&a, Duration::from_secs(2)) {
                    Ok(_) => report("connect", true, addr.clone()),
                    Err(e) => report("connect", false, format!("{} {}", addr, e)),
                }
            }
        }
        "forkbomb" => {
            let me = std::env::current_exe().unwrap();
            let mut n = 0;
            loop {
                match Command::new(&me).arg("sleep").arg(&token).spawn() {
                    Ok(_) => n += 1,
                    Err(e) => { report("spawn", false, format!("after {} children: {}", n, e)); break; }
                }
                if n > 100000 { break; }
            }
            let mut t = 0;
            loop {
                match std::thread::Builder::new().spawn(|| std::thread::sleep(Duration::from_secs(1000))) {
                    Ok(_) => t += 1,
                    Err(e) => { report("thread", false, format!("after {} threads: {}", t, e)); break; }
                }
                if t > 100000 { break; }
            }
        }
        "daemon" => {
            // setsid child that double-forks a sleeper, then the parent exits at once
            let me = std::env::current_exe().unwrap();
            let c = Command::new(&me).arg("fork-sleeper").arg(&token).process_group(0).spawn();
            report("daemon", c.is_ok(), String::new());
            std::thread::sleep(Duration::from_millis(500));
        }
        "fork-sleeper" => {
            let me = std::env::current_exe().unwrap();
            let _ = Command::new(&me).arg("sleep").arg(&token).process_group(0).spawn();
        }
        "sleep" => std::thread::sleep(Duration::from_secs(1000)),
        "hang" => {
            let me = std::env::current_exe().unwrap();
            let _ = Command::new(&me).arg("sleep").arg(&token).process_group(0).spawn();
            report("running", true, String::new());
            loop { std::hint::black_box(0u64); }
        }
        "output" => {
            let chunk = vec![b'x'; 1 << 20];
            let mut out = std::io::stdout();
            for _ in 0..200 { if out.write_all(&chunk).is_err() { break; } }
        }
        "alloc" => {
            let mut v: Vec<Vec<u8>> = Vec::new();
            loop { v.push(vec![1u8; 1 << 30]); report("alloc", true, format!("{} GiB", v.len())); }
        }
        _ => panic!("unknown mode"),
    }
}
