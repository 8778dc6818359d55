#!/bin/sh
# Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause
# Stage what a run on the GPU machine needs into .device/ (git-ignored, passed
# to the device tool as `carry`): Debian's runtime libraries as .deb files, the
# StarPU shared library (and the polling-drivers one, where
# HYLA_STARPU_DRIVERS=polling scripts/install-deps.sh built it, in
# .device/starpu-polling), Open MPI's runtime libraries, a CUDA build of hyla
# made here (sm_90 + PTX) and LAPACK's testers if scripts/lapack-testers.sh
# has built them.
# Then run there:  sh scripts/device-run.sh [checks|bench|all]
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
stage="$here/.device"
prefix=${HYLA_STARPU_PREFIX:-$HOME/.cache/hyla/starpu}

mkdir -p "$stage/debs" "$stage/starpu/lib" "$stage/starpu/bin"
if [ -z "$(ls "$stage/debs")" ]; then
	(cd "$stage/debs" && apt-get download -qq libopenblas0-pthread liblapacke libtmglib3 \
		libhwloc15 libgfortran5 libquadmath0 libnuma1 >/dev/null)
fi
# Open MPI's runtime for device-run.sh's mpi mode (6 MB; hwloc's plugins
# and what they pull in left out: Open MPI runs without them).
mkdir -p "$stage/mpi-debs"
if [ -z "$(ls "$stage/mpi-debs")" ]; then
	(cd "$stage/mpi-debs" && apt-get download -qq libopenmpi3 openmpi-bin openmpi-common libpmix2 \
		libevent-core-2.1-7 libevent-pthreads-2.1-7 libfabric1 libucx0 libibverbs1 librdmacm1 \
		libpsm2-2 libpsm-infinipath1 libnl-3-200 libnl-route-3-200 libmunge2 libudev1 >/dev/null)
fi
# Debian's Python, NumPy and SciPy for device-run.sh's scipy mode (the drop-in
# under SciPy; 24 MB).
mkdir -p "$stage/py"
if [ -z "$(ls "$stage/py")" ]; then
	(cd "$stage/py" && apt-get download -qq python3.11-minimal libpython3.11-minimal \
		libpython3.11-stdlib python3-numpy python3-scipy >/dev/null)
fi
cp -a "$(readlink -f "$prefix")"/lib/libstarpu-1.3.so* "$stage/starpu/lib/"
cp -a "$(readlink -f "$prefix")"/lib/libstarpumpi-1.3.so* "$stage/starpu/lib/" 2>/dev/null || true
cp "$(readlink -f "$prefix")"/bin/starpu_perfmodel_display "$stage/starpu/bin/"
strip --strip-unneeded "$stage/starpu/lib/"libstarpu*-1.3.so.*.* "$stage/starpu/bin/"*
polling=$(ls -d "${HYLA_CACHE:-$HOME/.cache/hyla}"/starpu-*-polling-*/ 2>/dev/null | tail -n 1)
if [ -n "$polling" ]; then
	mkdir -p "$stage/starpu-polling/lib"
	cp -a "$polling"lib/libstarpu-1.3.so* "$stage/starpu-polling/lib/"
	strip --strip-unneeded "$stage/starpu-polling/lib/"libstarpu-1.3.so.*.*
fi
cmake -S "$here" -B "$stage/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="90-real;90-virtual" >/dev/null
cmake --build "$stage/build" -j"$(nproc)" >/dev/null
rm -rf "$stage/build/CMakeFiles" "$stage/build"/*/CMakeFiles
# LAPACK's testers for device-run.sh's lapack mode, as scripts/lapack-testers.sh
# built them here (run it once first).
testers=$(ls -d "${HYLA_CACHE:-$HOME/.cache/hyla}"/lapack-testers-*/ 2>/dev/null | tail -n 1)
if [ -n "$testers" ]; then
	rm -rf "$stage/lapack-testers"
	cp -a "$testers" "$stage/lapack-testers"
fi
du -sh "$stage"
