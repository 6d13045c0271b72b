"""Package mapping: top-level folders install under the one import package ``adequacy``.

The layout (docs/design.md) keeps ``backends/``, ``mutators/`` and ``optimizers/`` at the repository's top
level, but nothing generic may land in a user's site-packages, so each folder is mapped under
``adequacy.``. setuptools cannot glob sub-packages through a rename declaratively, hence this file.
"""

from setuptools import find_packages, setup

ROOTS = {
    "adequacy": "adequacy",
    "adequacy.backends": "backends",
    "adequacy.mutators": "mutators",
    "adequacy.optimizers": "optimizers",
    "adequacy_python": "backends/adequacy_python",
}

packages: list[str] = []
for prefix, folder in ROOTS.items():
    packages.append(prefix)
    packages += [f"{prefix}.{sub}" for sub in find_packages(folder)]

# Non-Python files the engines need at run time (templates, Java and Rust sources, bundled data).
DATA = ["*.j2", "*.rs", "*.toml", "*.java", "*.json", "*.txt", "py.typed", "**/*.j2",
        "**/*.cpp",
        "**/*.jsonl",
        "**/*.java", "**/*.rs", "**/*.toml", "**/*.xml", "**/*.json", "**/*.md"]

PACKAGE_DATA = {p: DATA for p in packages}
# The Python backend's bundled example tasks are Python files that are not modules.
PACKAGE_DATA["adequacy_python"] = [*DATA, "examples/**/*.py"]

setup(packages=packages, package_dir=ROOTS, package_data=PACKAGE_DATA,
      include_package_data=True)
