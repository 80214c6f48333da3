"""A local SparkSession for the tests and the benchmark, with a Java found on this machine."""

from __future__ import annotations

import atexit
import os
import shutil
import sys
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

__all__ = [
    "SESSION_HEADING",
    "documented_session",
    "find_java_home",
    "local_session",
    "session_code",
    "test_session",
]

#: docs/spark.md: the page, and the section whose ```python block makes the session.
SPARK_PAGE = Path(__file__).resolve().parents[2] / "docs" / "spark.md"
SESSION_HEADING = "## A session on one machine"
#: What the tests want of a session and a user need not write: no UI, no
#: progress bars, as many shuffle partitions as cores. Given as spark-submit
#: arguments, so that the page's code runs unchanged.
TEST_SUBMIT_ARGS = (
    "--conf spark.ui.enabled=false --conf spark.ui.showConsoleProgress=false "
    "--conf spark.sql.shuffle.partitions=2 "
    "--conf spark.sql.execution.arrow.pyspark.enabled=true pyspark-shell"
)

#: Where Debian and Ubuntu images install JDKs.
JVM_DIR = Path("/usr/lib/jvm")
#: Java versions Spark 4 runs on, preferred first.
SUPPORTED = ("17", "21")


def find_java_home() -> str | None:
    """``$JAVA_HOME``, the JDK of ``java`` on the PATH, or a Java 17/21 under /usr/lib/jvm."""
    home = os.environ.get("JAVA_HOME")
    if home and (Path(home) / "bin" / "java").exists():
        return home
    on_path = shutil.which("java")
    if on_path:
        return str(Path(on_path).resolve().parents[1])
    if JVM_DIR.is_dir():
        for version in SUPPORTED:
            for candidate in sorted(JVM_DIR.glob(f"*{version}*")):
                if (candidate / "bin" / "java").exists():
                    return str(candidate)
    return None


def local_session(app: str, cores: int = 2) -> SparkSession:
    """A local SparkSession (no UI, few shuffle partitions); JAVA_HOME set if it was not."""
    from pyspark.sql import SparkSession

    home = find_java_home()
    if home is None:
        raise RuntimeError("no Java found: set JAVA_HOME or install Java 17")
    os.environ["JAVA_HOME"] = home
    # The Python workers (pandas UDFs) run this interpreter, where rfc1738 is installed.
    os.environ["PYSPARK_PYTHON"] = sys.executable
    session = (
        SparkSession.builder.master(f"local[{cores}]")
        .appName(app)
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", str(cores))
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    return session


def session_code() -> str:
    """The ```python block of docs/spark.md's section on a session on one machine."""
    text = SPARK_PAGE.read_text(encoding="utf-8")
    section = text.split(SESSION_HEADING + "\n", 1)[1].split("\n## ", 1)[0]
    return section.split("```python\n", 1)[1].split("```", 1)[0]


def documented_session() -> SparkSession:
    """The session docs/spark.md shows, made by running its code as written.

    Nothing the code should say is set for it: ``PYSPARK_PYTHON`` is taken
    out of the environment first (the code must name the workers' Python
    itself). ``JAVA_HOME`` is set if it was not, as a user's machine has it.
    """
    home = find_java_home()
    if home is None:
        raise RuntimeError("no Java found: set JAVA_HOME or install Java 17")
    os.environ["JAVA_HOME"] = home
    os.environ.pop("PYSPARK_PYTHON", None)
    before = os.environ.get("PYSPARK_SUBMIT_ARGS")
    os.environ["PYSPARK_SUBMIT_ARGS"] = TEST_SUBMIT_ARGS
    try:
        namespace: dict[str, object] = {}
        exec(compile(session_code(), str(SPARK_PAGE), "exec"), namespace)
    finally:
        if before is None:
            os.environ.pop("PYSPARK_SUBMIT_ARGS", None)
        else:
            os.environ["PYSPARK_SUBMIT_ARGS"] = before
    session = namespace["spark"]
    from pyspark.sql import SparkSession

    assert isinstance(session, SparkSession), "docs/spark.md's session code makes no `spark`"
    session.sparkContext.setLogLevel("ERROR")
    return session


@cache
def test_session() -> SparkSession:
    """The one SparkSession of a test run (:func:`documented_session`), stopped at exit.

    Shared by the engine tests' fixture and the column harness
    (``tests/columns/backends.py``), whichever asks first. Skips the
    asking test without pyspark or Java.
    """
    import pytest

    pytest.importorskip("pyspark", reason="pyspark is not installed (pip install rfc1738[spark])")
    if find_java_home() is None:
        pytest.skip("no Java found (JAVA_HOME, java on the PATH, /usr/lib/jvm): Spark needs it")
    session = documented_session()
    atexit.register(session.stop)
    return session
