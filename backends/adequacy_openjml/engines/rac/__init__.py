"""The ``rac`` engine: JML runtime checking by translation to Java, in a persistent JVM."""
