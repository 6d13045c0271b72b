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

extern "C" {
    fn syscall(number: i64, ...) -> i64;
    fn fork() -> i32;
    fn setsid() -> i32;
}

// a child process without exec (no program may be executed in the sandbox): it keeps the
// parent's command line, so the tests still find it by its token
fn fork_sleeper(new_session: bool) -> std::io::Result<()> {
    match unsafe { fork() } {
        -1 => Err(std::io::Error::last_os_error()),
        0 => {
            if new_session {
                unsafe { setsid(); }
            }
            std::thread::sleep(Duration::from_secs(1000));
            std::process::exit(0);
        }
        _ => Ok(()),
    }
}

const SYS_MEMFD_CREATE: i64 = 319;
const SYS_EXECVEAT: i64 = 322;
const AT_EMPTY_PATH: i64 = 0x1000;

// execveat(fd, "", argv, envp, AT_EMPTY_PATH): runs the file behind fd without a path
fn execveat(fd: i32) -> std::io::Error {
    let empty = b"\0";
    let arg0 = b"payload\0";
    let argv: [*const u8; 2] = [arg0.as_ptr(), std::ptr::null()];
    let envp: [*const u8; 1] = [std::ptr::null()];
    unsafe {
        syscall(SYS_EXECVEAT, fd as i64, empty.as_ptr(), argv.as_ptr(), envp.as_ptr(), AT_EMPTY_PATH);
    }
    std::io::Error::last_os_error()
}

fn try_run(what: &str, prog: &str, args: &[&str]) {
    match Command::new(prog).args(args).output() {
        Ok(o) => report(what, true, format!("{} {:?} {}", prog, o.status,
                                            String::from_utf8_lossy(&o.stdout).trim())),
        Err(e) => report(what, false, format!("{} {}", prog, e)),
    }
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
        "loader" => {
            // a program written to the private /tmp, started through the dynamic loader
            let (ld, payload) = (&args[3], &args[4]);
            let copy = format!("/tmp/{}", token);
            match std::fs::copy(payload, &copy) {
                Ok(_) => report("write", true, copy.clone()),
                Err(e) => report("write", false, format!("{} {}", copy, e)),
            }
            let _ = std::fs::set_permissions(&copy, std::os::unix::fs::PermissionsExt::from_mode(0o755));
            try_run("loader", ld, &[&copy]);
            try_run("exec", &copy, &[]);
        }
        "execveat" => {
            use std::os::unix::io::AsRawFd;
            let copy = format!("/tmp/{}", token);
            let _ = std::fs::copy(&args[3], &copy);
            let _ = std::fs::set_permissions(&copy, std::os::unix::fs::PermissionsExt::from_mode(0o755));
            for p in [copy.as_str()] {
                match std::fs::File::open(p) {
                    Ok(f) => report("execveat", false, format!("{} {}", p, execveat(f.as_raw_fd()))),
                    Err(e) => report("open", false, format!("{} {}", p, e)),
                }
            }
        }
        "memfd" => {
            // a program that never touches a file system: an anonymous memory file
            let (payload, ld) = (&args[3], &args[4]);
            let bytes = std::fs::read(payload).unwrap();
            let name = b"payload\0";
            let fd = unsafe { syscall(SYS_MEMFD_CREATE, name.as_ptr(), 0i64) } as i32;
            if fd < 0 {
                report("memfd_create", false, format!("{}", std::io::Error::last_os_error()));
                return;
            }
            use std::os::unix::io::FromRawFd;
            let mut f = unsafe { std::fs::File::from_raw_fd(fd) };
            f.write_all(&bytes).unwrap();
            let path = format!("/proc/self/fd/{}", fd);
            try_run("exec", &path, &[]);
            try_run("loader", ld, &[&path]);
            report("execveat", false, format!("memfd {}", execveat(fd)));
            std::mem::forget(f);
        }
        "ptrace" => {
            // bubblewrap's own process (pid 1 of the sandbox) has no filter: could we steer it?
            let r = unsafe { syscall(101, 16i64, 1i64, 0i64, 0i64) };  // PTRACE_ATTACH
            report("ptrace", r == 0, format!("pid 1 {}", std::io::Error::last_os_error()));
            match std::fs::OpenOptions::new().write(true).open("/proc/1/mem") {
                Ok(_) => report("open", true, "/proc/1/mem".into()),
                Err(e) => report("open", false, format!("/proc/1/mem {}", e)),
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
            let mut n = 0;
            loop {
                match fork_sleeper(false) {
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
            let c = match unsafe { fork() } {
                -1 => Err(std::io::Error::last_os_error()),
                0 => {
                    unsafe { setsid(); }
                    let _ = fork_sleeper(true);
                    std::process::exit(0);
                }
                _ => Ok(()),
            };
            report("daemon", c.is_ok(), String::new());
            std::thread::sleep(Duration::from_millis(500));
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
