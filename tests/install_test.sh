#!/bin/sh
# Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause
# hyla as a user gets it: `cmake --install` into a temporary prefix, then two
# of the installed examples built from outside the tree, one with pkg-config
# alone (eigen_pipeline) and one with CMake's find_package(hyla) alone
# (sched_contexts), and run with no LD_LIBRARY_PATH. The installed drivers
# answer --version. Usage: install_test.sh BUILD_DIR
set -eu
build=$1
# Programs built outside against a sanitizer build would need its runtime
# first: this test is the plain build's.
if ldd "$build/libhyla.so" | grep -q libasan; then
	echo "install_test: skipped (a sanitizer build)"
	exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
prefix=$dir/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
cd "$dir"
unset LD_LIBRARY_PATH
examples=$prefix/share/hyla/examples

# pkg-config: hyla's flags, and the example's own LAPACKE and OpenBLAS
# (the compiler's output shown only on failure: CUDA 13's headers, which
# StarPU's include, warn of deprecations).
cc -O2 -I"$examples" -o eigen_pipeline "$examples/eigen_pipeline.c" \
	$(PKG_CONFIG_PATH="$(dirname "$(find "$prefix" -name hyla.pc)")" \
		pkg-config --cflags --libs hyla lapacke openblas) \
	-lm 2>cc.log || { cat cc.log; exit 1; }
./eigen_pipeline 200 32

# find_package(hyla): the imported target hyla::hyla.
mkdir app
cat > app/CMakeLists.txt <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(app LANGUAGES C)
find_package(hyla 0.2 REQUIRED)
find_package(PkgConfig REQUIRED)
pkg_check_modules(LAPACK REQUIRED IMPORTED_TARGET lapacke openblas)
add_executable(sched_contexts $examples/sched_contexts.c)
target_include_directories(sched_contexts PRIVATE $examples)
target_link_libraries(sched_contexts PRIVATE hyla::hyla PkgConfig::LAPACK m)
CMAKE
cmake -S app -B app/build -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build app/build >build.log 2>&1 || { cat build.log; exit 1; }
status=0
app/build/sched_contexts 200 32 || status=$?
[ "$status" = 0 ] || [ "$status" = 77 ] || exit "$status"

for driver in hr_reduce qr_householder; do
	"$prefix/bin/$driver" --version | grep -q "^$driver (hyla) [0-9]" ||
		{ echo "FAILED: $driver --version"; exit 1; }
done
echo "install_test: installed, two examples built from outside the tree and run: pass"
