"""The JML backend's engines, each an ``adequacy.extensions.backend.Engine`` over the front end's
``JmlSpec``: ``rac`` (runtime checking, default), ``openjml`` (OpenJML ESC on stubs, opt-in)
and ``key`` (KeY on stubs, opt-in; also the backend's ``Verifier``)."""
