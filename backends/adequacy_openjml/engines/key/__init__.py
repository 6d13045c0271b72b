"""The ``key`` engine and verifier: KeY 2.12.3 in a persistent JVM worker (docs/key.md)."""
