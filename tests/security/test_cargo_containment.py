"""cargo compiles spec text, so a build script that slipped past the front end is contained.

The front end rejects build scripts and proc macros; this crate has one on purpose and is built
exactly as the exec_spec engine builds a harness crate (``cargo_sandbox``, offline): the build
script must not read the home folder or the project, write outside the crate and target folders,
or reach the network.
"""

from __future__ import annotations

import socket
import uuid
from pathlib import Path

import pytest

from adequacy import sandbox
from adequacy.sandbox.toolchain import cache_dir
from adequacy_verus.exec_spec import engine

pytestmark = [pytest.mark.slow,
              pytest.mark.requires("cargo")]

REPO = Path(__file__).resolve().parents[2]

BUILD_RS = r'''
use std::io::Write;
fn main() {
    let mut log = String::new();
    let token = "TOKEN";
    for p in ["/etc/passwd", "README", "BASHRC"] {
        log += &format!("read {} {}\n", p, std::fs::read(p).is_ok());
    }
    for d in ["REPO", "HOME", "/var/tmp"] {
        let p = format!("{}/{}", d, token);
        log += &format!("write {} {}\n", p, std::fs::write(&p, b"x").is_ok());
    }
    let addr = "127.0.0.1:PORT".parse().unwrap();
    let ok = std::net::TcpStream::connect_timeout(&addr, std::time::Duration::from_secs(2)).is_ok();
    log += &format!("connect {}\n", ok);
    let mut f = std::fs::File::create(concat!(env!("CARGO_MANIFEST_DIR"), "/escape.log")).unwrap();
    f.write_all(log.as_bytes()).unwrap();
}
'''


def test_a_build_script_is_contained() -> None:
    token = f"adequacy-cargo-{uuid.uuid4().hex}"
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(5)
    server.settimeout(0.5)
    crate = cache_dir() / "exec_spec" / "crates" / token
    (crate / "src").mkdir(parents=True)
    try:
        (crate / "Cargo.toml").write_text(
            '[package]\nname = "escape"\nversion = "0.1.0"\nedition = "2021"\n')
        (crate / "src" / "main.rs").write_text("fn main() {}\n")
        (crate / "build.rs").write_text(
            BUILD_RS.replace("TOKEN", token).replace("README", str(REPO / "README.md"))
            .replace("BASHRC", str(Path.home() / ".bashrc")).replace("REPO", str(REPO))
            .replace("HOME", str(Path.home()))
            .replace("PORT", str(server.getsockname()[1])))
        view, env = engine.cargo_sandbox(crate, offline=True)
        env["CARGO_TARGET_DIR"] = str(crate / "target")
        r = sandbox.run_limited(["cargo", "build", "--offline"], cwd=crate, timeout=600,
                                env=env, view=view,
                                limits=sandbox.SandboxLimits(memory_mb=None, processes=None,
                                                             file_size_mb=2048,
                                                             open_files=4096,
                                                             drop_privileges=False))
        assert r.returncode == 0, r.stderr.decode()[-2000:]
        log = (crate / "escape.log").read_text().splitlines()
        assert log == ["read /etc/passwd false", f"read {REPO / 'README.md'} false",
                       f"read {Path.home() / '.bashrc'} false",
                       f"write {REPO}/{token} false", f"write {Path.home()}/{token} false",
                       f"write /var/tmp/{token} false", "connect false"], log
        for d in (REPO, Path.home(), Path("/var/tmp")):
            assert not (d / token).exists()
        with pytest.raises(TimeoutError):
            server.accept()
    finally:
        server.close()
        sandbox.remove_tree(crate)
