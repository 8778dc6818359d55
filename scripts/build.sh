#!/bin/sh
# Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause
# Installs the dependencies (scripts/install-deps.sh: Debian packages and a
# cached StarPU 1.3.10) and builds hyla into build/ (or $HYLA_BUILD_DIR).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${HYLA_BUILD_DIR:-$here/build}
"$here/scripts/install-deps.sh"
if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
	export CUDACXX=/usr/local/cuda/bin/nvcc
fi
cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j"$(nproc)"
