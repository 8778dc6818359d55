#!/bin/sh
# Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause
# Install hyla's build dependencies on Debian 12 and build StarPU 1.3.10 from
# Debian's source package into a cached prefix. Prints nothing but progress;
# the prefix is written to $HYLA_CACHE/starpu-prefix for CMake to find.
#   HYLA_CACHE   cache directory (default ~/.cache/hyla)
#   HYLA_NO_APT  set to skip apt-get (packages already installed)
#   HYLA_STARPU_DRIVERS=polling  a second StarPU beside the default, whose
#                drivers poll (no --enable-blocking-drivers: blocking ones
#                reduce STARPU_NWORKER_PER_CUDA to one worker a GPU), for
#                that check alone; $HYLA_CACHE/starpu stays the default one
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
cache=${HYLA_CACHE:-$HOME/.cache/hyla}
# patches/starpu-1.3.10-*.patch: CUDA 13's API changes; parallel tasks' kernels given their data
version=1.3.10

if command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then
	cuda_dir=$(dirname "$(dirname "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)")")
	variant=cuda
else
	cuda_dir=
	variant=cpu
fi

flags="--disable-static --enable-mpi --with-mpicc=/usr/bin/mpicc --disable-opencl --disable-fortran \
--disable-build-tests --disable-build-examples --disable-build-doc \
--disable-starpufft --disable-socl --disable-hdf5 --disable-glpk \
--disable-opengl-render --without-x --disable-full-gdb-information \
--enable-maxcpus=256 --enable-maxcudadev=16 --enable-maxnumanodes=16 \
--enable-maxbuffers=16 --enable-maximplementations=4"
if [ "${HYLA_STARPU_DRIVERS:-}" = polling ]; then
	variant=$variant-polling
else
	flags="$flags --enable-blocking-drivers"
fi
if [ "${variant%-polling}" = cuda ]; then
	flags="$flags --with-cuda-dir=$cuda_dir"
else
	flags="$flags --disable-cuda"
fi

# The cache's key: the configure flags, the patches, CUDA's version and the
# build steps' revision (raise it when the steps below change how StarPU
# is built).
recipe=1
patches=$(cat "$here"/patches/starpu-1.3.10-*.patch)
cuda_version=$([ -n "$cuda_dir" ] && "$cuda_dir/bin/nvcc" --version | tail -n 1 || true)
key=$(printf '%s\n%s\n%s\n%s\n' "$flags" "$patches" "$cuda_version" "$recipe" |
	sha256sum | cut -c1-12)
prefix="$cache/starpu-$version-$variant-$key"
apt_ok() { [ -z "${HYLA_NO_APT:-}" ] && [ "$(id -u)" = 0 ]; }

# Debian's packages, only when one is missing (a rebuild with all of them
# there does not touch apt).
packages="build-essential cmake pkg-config dpkg-dev gfortran libopenblas-dev liblapacke-dev
libtmglib-dev libhwloc-dev libnuma-dev libopenmpi-dev openmpi-bin python3 python3-numpy
python3-matplotlib ca-certificates"
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086
if apt_ok && ! dpkg -s $packages >/dev/null 2>&1; then
	echo "hyla: installing Debian packages"
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $packages >/dev/null
fi

mkdir -p "$cache"
if [ -f "$prefix/.built" ]; then
	echo "hyla: StarPU $version ($variant) cached in $prefix"
else
	echo "hyla: building StarPU $version ($variant) into $prefix"
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
	"$here/scripts/debian-source.sh" "$work" starpu=$version+dfsg-2 starpu
	src=$(ls -d "$work"/starpu-$version*/)
	(cd "$src" && for p in "$here"/patches/starpu-1.3.10-*.patch; do patch -p1 -s < "$p" || exit 1; done &&
		./configure -q --prefix="$prefix" $flags >"$work/configure.log" 2>&1 ||
		{ tail -30 "$work/configure.log"; exit 1; }
		make -s -j"$(nproc)" >"$work/make.log" 2>&1 || { tail -40 "$work/make.log"; exit 1; }
		make -s install >/dev/null 2>&1)
	rm -rf "$prefix/share/doc" "$prefix/share/starpu/examples"
	for p in "$here"/patches/starpu-1.3.10-*.patch; do basename "$p"; done >"$prefix/.built" # CMakeLists.txt reads it
fi
if [ "${HYLA_STARPU_DRIVERS:-}" = polling ]; then
	echo "hyla: StarPU with polling drivers ready in $prefix"
	exit 0
fi
ln -sfn "$prefix" "$cache/starpu"
echo "hyla: StarPU ready: PKG_CONFIG_PATH=$cache/starpu/lib/pkgconfig"
