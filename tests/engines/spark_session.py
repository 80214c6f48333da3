"""A local SparkSession for the tests and the benchmark, with a Java found on this machine."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

__all__ = ["find_java_home", "local_session"]

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
