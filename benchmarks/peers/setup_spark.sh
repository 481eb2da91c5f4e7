#!/usr/bin/env bash
# Make benchmarks/.venv-spark: a virtual environment with pyspark, the peer of bench_dask.py
# (Spark MLlib's BinaryClassificationMetrics). Spark needs a Java runtime (17 or 21): it is
# not installed here; on Debian: apt-get install openjdk-17-jre-headless.
# Usage: bash benchmarks/peers/setup_spark.sh [python]  (default: python3)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$here/.venv-spark"
python="${1:-python3}"
if ! command -v java >/dev/null 2>&1; then
    echo "setup_spark.sh: no java on PATH; Spark needs Java 17 or 21 (apt-get install openjdk-17-jre-headless)" >&2
    exit 1
fi
if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --upgrade pip
# numpy: MLlib's Python side; pyarrow: reads the benchmark's Parquet into Spark DataFrames
"$venv/bin/python" -m pip install --quiet "pyspark>=3.5" numpy pyarrow pandas
"$venv/bin/python" -c "import pyspark; print('pyspark', pyspark.__version__, 'in', '$venv')"
