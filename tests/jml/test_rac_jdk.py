"""Which JDKs the rac engine runs on: JDK 24+ has no SecurityManager, so none of them."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("major, ok", [(17, True), (23, True), (24, False), (25, False)])
def test_a_jdk_without_a_security_manager_makes_the_engine_unavailable(major: int, ok: bool
                                                                       ) -> None:
    """JDK 24+ refuses ``-Djava.security.manager=allow``: every eval JVM would die at start.
    The engine says why instead, and names the JDK it needs."""
    from adequacy_openjml.engines.rac.worker import jdk_problem
    from adequacy_openjml.jdk import Java

    why = jdk_problem(Java(java="/opt/jdk/bin/java", javac="/opt/jdk/bin/javac", major=major))
    assert (why is None) == ok
    if not ok:
        assert why is not None and "SecurityManager" in why and f"JDK {major}" in why


def test_java_home_at_jdk_25_reports_rac_unavailable(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine's own availability check, on a real JDK 25 when the machine has one."""
    import os

    from adequacy_openjml.engines.rac.engine import RacEngine

    home = "/usr/lib/jvm/temurin-25-jdk-amd64"
    if not os.path.exists(f"{home}/bin/javac"):
        pytest.skip("no JDK 25 at " + home)
    monkeypatch.setenv("JAVA_HOME", home)
    info = RacEngine().info()
    assert not info.available and "SecurityManager" in info.reason
