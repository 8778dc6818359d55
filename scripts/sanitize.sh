#!/bin/sh
# Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause
# hyla under AddressSanitizer (leaks included) and UndefinedBehaviorSanitizer,
# CPU only, -O1 -g: builds into build-asan/ (or $HYLA_SANITIZE_BUILD_DIR) and
# runs the whole CTest suite there; any sanitizer report fails its test.
# StarPU and OpenBLAS are not instrumented: hyla's own code is checked, and
# the calls it makes into them. Needs scripts/build.sh's dependencies.
# Usage: scripts/sanitize.sh [ctest arguments, e.g. -R geqrf]
# On 2 cores: about 20 s of build and 4 minutes of tests.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${HYLA_SANITIZE_BUILD_DIR:-$here/build-asan}
HYLA_NO_APT=1 "$here/scripts/install-deps.sh" >/dev/null # StarPU, cached

san="-fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all"
cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Debug -DHYLA_CUDA=OFF \
	-DCMAKE_C_FLAGS="$san -fno-omit-frame-pointer" -DCMAKE_C_FLAGS_DEBUG="-O1 -g" \
	-DCMAKE_EXE_LINKER_FLAGS="$san" -DCMAKE_SHARED_LINKER_FLAGS="$san" >/dev/null
cmake --build "$build" -j"$(nproc)" >/dev/null

# The executables load the ASan runtime first (linked with -fsanitize).
# A CUDA-enabled StarPU is told there is no GPU to look for; where it still
# maps CUDA's memory, ASan's shadow gap must not be protected. StarPU's own
# leaks, each traced in its source, are in tests/lsan.supp.
export STARPU_NCUDA=0 STARPU_NOPENCL=0
# hwloc's PCI plugin (libhwloc-plugins, which Debian's Open MPI brings) is
# unloaded at exit with libpciaccess's allocations still held: leaks in an
# unknown module. A CPU-only run needs no PCI topology.
export HWLOC_COMPONENTS=-pci
export ASAN_OPTIONS="protect_shadow_gap=0:detect_leaks=1:exitcode=23${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export LSAN_OPTIONS="suppressions=$here/tests/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
ctest --test-dir "$build" --output-on-failure -j"$(nproc)" "$@"
