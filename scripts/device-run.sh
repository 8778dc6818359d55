#!/bin/sh
# Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause
#
# hyla's GPU check-and-benchmark script. It runs on the GPU machine, from the
# repository root, with the .device/ folder that scripts/device-prepare.sh
# stages (Debian runtime libraries, the StarPU library, a CUDA build of hyla):
# it unpacks those libraries, checks every CUDA path against LAPACK under each
# StarPU scheduler, and times the drivers. Logs (and pictures, models) go to
# $OUT, or ./device-out.
#
#   sh scripts/device-run.sh [MODE]     (default all: checks, parallel, trace,
#                                        cgs, householder, tridiag, bench)
#
# Checks
#   checks       MGS, CGS, Householder QR, tridiagonal, bidiagonal and
#                Hessenberg testers, the asynchronous calls and the embedding
#                examples under eager, random, dmda and ws, CUDA on; the drivers
#                with the GPU alone (STARPU_NCPU=0).
#                HYLA_CHECKS=gs: the Gram-Schmidt QRs only; HYLA_CHECK_SCHEDS:
#                fewer schedulers.
#   parallel     checks under pheft and peager (parallel tasks on combined
#                workers) with the GPU.
#   lapack       the drop-in LAPACK's test (linked and preloaded) and LAPACK's
#                own testers on the system LAPACK and on the drop-in
#                (scripts/lapack-testers.sh, with the testers that
#                device-prepare.sh staged; their outputs to $OUT), CUDA on.
#   reliability  the Gram-Schmidt edges (scaled inputs, dependent columns), the
#                concurrent first use, the API's edges, an application's own
#                handle reduced in place (the bytes that cross the bus),
#                sched_contexts and the drivers' checks, CUDA on.
# Timings (dmda, after calibration runs in the same call unless said)
#   hr           the Hessenberg panel's GPU checks and hr_reduce timings (a
#                quick loop).
#   hr-table     hr_reduce's full table: 8000 with LAPACK and Q, other sizes,
#                single precision, the split panel, cores alone, and the GPU
#                work without the runtime (gehrd_gpu_bench); run it with the
#                models of calibrate (STARPU_PERF_MODEL_DIR).
#   qr           the Householder panel kernel's checks and qr_householder 8000
#                by nb (HYLA_QR_NBS).
#   householder  qr_householder with LAPACK and cuSOLVER at several shapes.
#   cgs          qr_cgs (and qr_mgs) with cuSOLVER; the Level-2 kernels and the
#                Gram-Schmidt panels' cuBLAS calls (gram_bench).
#                HYLA_CGS_NBS="128 512": also time qr_cgs at those nb.
#   tridiag      the tridiagonal and bidiagonal checks, then their timings
#                with LAPACK and cuSOLVER (HYLA_SCHEDS, HYLA_REDUCTIONS: fewer
#                schedulers or drivers).
#   reductions-quick  the reductions' GPU checks and 8000's timings in one call.
#   reductions-trace  where tridiag/bidiag/hr_reduce 8000's time goes (traced,
#                summed by bench/trace_summary.py; HYLA_TRACE_CMDS=qr_householder
#                for the Householder QR).
#   scipy        SciPy's hessenberg, qr and eigh calls with the system LAPACK,
#                through the drop-in, and the drivers, at 4000 and 8000
#                (bench/scipy_dropin.py, with the Python that device-prepare.sh
#                staged).
#   scaling      bench/scaling.py's runs on HYLA_GPUS (default 1,2) GPUs, the
#                HYLA_PART (K/N) share of its cases, then its table; the
#                models (STARPU_HOSTNAME=vm) start from .device/models.tar.gz
#                if staged there, and go back out in $OUT/models.tar.gz.
#   solvers      the eigensolver's and the SVD's checks (the vectors' products
#                on the GPU; every deflation case: --kind repeated) under each
#                scheduler and with the GPU alone, then
#                eigh and svd at 4000 and 8000, values and vectors, with
#                cuSOLVER (and LAPACK at 4000), after calibration runs.
#   panels       the tridiagonal and bidiagonal GPU panels alone, µs a column.
#   cores        hr_reduce with STARPU_NCUDA=0 against LAPACK under peager
#                (parallel tasks) and dmda (STARPU_CALIBRATE=0 set wherever
#                dmda runs on cores alone: the drivers run eager there
#                otherwise).
#   big, big-hr  n = 50000 (64-bit sizes): the QRs, and the Hessenberg
#                reduction with Q, with the sampled checks.
#   bench        hr_reduce and qr_mgs under several configurations.
#   suite        bench/suite.py's table, after a calibration run of each case.
#   calibrate    perfmodels/calibrate.sh from empty models, timed, then
#                every driver at 8000 with those models (none may say they
#                are not calibrated).
#   trace        the schedule picture of a calibrated hr_reduce 8000.
#   compare      the commands of HYLA_COMPARE (';' between them; default
#                qr_mgs and qr_cgs at 8000) with this build and an older one in
#                .device/build-old (a CUDA build of the older tree, as
#                device-prepare.sh makes), alternately, each with its own copy
#                of the reference models, after a warm-up run; with
#                HYLA_COMPARE_MODELS=empty each starts from empty models that
#                HYLA_COMPARE_WARMUP (default 8; 1 with the reference models)
#                runs of each command calibrate first.
#   mpi          hyla over StarPU-MPI (Open MPI from .device/mpi-debs): the
#                column QR at HYLA_MPI_N (8000), nb HYLA_MPI_NBS (64 128),
#                against qr_householder in one process, on the cores alone
#                (HYLA_MPI_SCHED, prio) on 1, 2 and 4 ranks, each bound to its
#                share of the cores; the row QR likewise; with HYLA_MPI_GPU=1
#                also with the GPU, shared by the ranks
#                (STARPU_LIMIT_CUDA_MEM each), under dmda.
#   profile      GPU time of each kernel in a window of hr_reduce 8000's column
#                loop (Nsight Compute).
# HYLA_STARPU_LIB: another StarPU library folder, e.g. .device/starpu-polling/lib
# (device-prepare.sh) with STARPU_NWORKER_PER_CUDA=2 for two workers a GPU.
# HYLA_TAG: a suffix for the log names.
set -u
what=${1:-all}
here=$(pwd)
out=${OUT:-$here/device-out}
mkdir -p "$out"
deps=/tmp/hyla-deps
mkdir -p $deps
for f in .device/debs/*.deb; do dpkg -x "$f" $deps; done
lib=$deps/usr/lib/x86_64-linux-gnu
starpu_lib=${HYLA_STARPU_LIB:-$here/.device/starpu/lib}
tag=${HYLA_TAG:-}
export LD_LIBRARY_PATH="$starpu_lib:$here/.device/build:$lib/openblas-pthread:$lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
export STARPU_HOME=/tmp/hyla-starpu STARPU_SILENT=1
export OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-SkylakeX}
bin=.device/build
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/machine.txt"
nproc | sed 's/^/cores: /' | tee -a "$out/machine.txt"

if [ "$what" = checks ] || [ "$what" = all ]; then
	echo "== checks: MGS, CGS and gehrd against LAPACK and the identities, every scheduler, CUDA on"
	for sched in ${HYLA_CHECK_SCHEDS:-eager random dmda ws}; do
		for args in "mgs d 3000 1700 256" "mgs d 2048 2048 256" "mgs_vector d 1000 600 128" \
			"mgs s 3000 1000 256" "mgs_vector s 900 900 128" "mgs d 2000 1000 256 1e10" \
			"mgs d 600 1 64" "cgs2 d 3000 1700 256" "cgs2 d 2048 2048 128" "cgs2 d 2000 1000 256 1e13" \
			"cgs2 s 3000 1000 256" "cgs2 s 1000 500 100 1e5" "cgs d 3000 1700 256" \
			"cgs d 2000 1000 200 1e6" "cgs s 1200 1200 256" "cgs_vector d 1000 600 128" \
			"cgs_vector d 800 400 64 1e5" "cgs_vector s 900 900 256" "cgs2 d 600 1 64"; do
			STARPU_SCHED=$sched $bin/tests/test_gs $args || echo "FAILED (exit $?): test_gs $args under $sched"
		done
		for args in "d 3000 2000 128" "d 2048 2048 256" "d 1500 4000 128" "s 3000 1000 128" "d 777 333 64"; do
			STARPU_SCHED=$sched $bin/tests/test_geqrf $args || echo "FAILED (exit $?): test_geqrf $args under $sched"
		done
		for args in "d 3000 L" "d 2049 L" "s 2000 L" "d 1000 U"; do
			STARPU_SCHED=$sched $bin/tests/test_sytrd $args || echo "FAILED (exit $?): test_sytrd $args under $sched"
		done
		for args in "d 3000 2000" "d 2049 2049" "s 2000 1500"; do
			STARPU_SCHED=$sched $bin/tests/test_gebrd $args || echo "FAILED (exit $?): test_gebrd $args under $sched"
		done
		for cmd in "tests/test_async" "tests/test_codelets 3000 2000 128" "tests/test_codelets_reduce 1000 64" \
			"eigen_pipeline 2000 128" \
			"reorth_loop 1000 16 80"; do
			STARPU_SCHED=$sched $bin/$cmd || echo "FAILED (exit $?): $cmd under $sched"
		done
		[ "${HYLA_CHECKS:-all}" = gs ] && continue
		for args in "d 1500 64" "d 1025 64" "d 600 32" "s 1200 64" "s 777 16" "d 130 64" \
			"s 600 32 auto 1e25" "d 600 32 auto 1e-150" "d 1000 128" "s 900 100" \
			"d 1500 64 gpu" "d 1025 64 cpu" "s 900 32 cpu" "d 600 32 cpu 1e-150" "d 2100 32 cpu" \
			"d 90 16 gpu underflow" "d 300 32 gpu underflow" \
			"s 1100 32 cpu"; do
			STARPU_SCHED=$sched $bin/tests/test_gehrd $args || echo "FAILED (exit $?): test_gehrd $args under $sched"
		done
		# The GPU alone: the host-code codelets on the GPU's worker, the
		# sequences' home fetch with no core.
		for cmd in "hr_reduce 1000 --want-q" "tridiag_reduce 900 --uplo U" "bidiag_reduce 600 1000" \
			"qr_householder 1000" "qr_cgs 1000" "qr_mgs 1000"; do
			STARPU_SCHED=$sched STARPU_NCPU=0 $bin/$cmd >/dev/null ||
				echo "FAILED (exit $?): STARPU_NCPU=0 $cmd under $sched"
		done
	done 2>&1 | tee "$out/checks.txt"
	grep -c FAILED "$out/checks.txt" | sed 's/^/failed checks: /'
fi

if [ "$what" = lapack ]; then
	for sched in eager dmda; do
		for nb in 4 8; do
			STARPU_SCHED=$sched HYLA_LAPACK_MIN_N=0 HYLA_LAPACK_NB=$nb $bin/tests/test_lapack_dropin hyla ||
				echo "FAILED: test_lapack_dropin hyla under $sched, nb $nb"
		done
		STARPU_SCHED=$sched $bin/tests/test_lapack_dropin system ||
			echo "FAILED: test_lapack_dropin system under $sched"
		STARPU_SCHED=$sched LD_PRELOAD=$bin/lapack/libhyla_lapack.so HYLA_LAPACK_MIN_N=0 \
			HYLA_LAPACK_NB=8 $bin/tests/test_lapack_preload hyla || echo "FAILED: test_lapack_preload under $sched"
	done
	HYLA_LAPACK_TESTERS=$here/.device/lapack-testers sh scripts/lapack-testers.sh $bin ||
		echo "FAILED: lapack-testers.sh"
	cp -r $bin/lapack-testers "$out/"
fi 2>&1 | tee "$out/lapack.txt"
[ "$what" = lapack ] && grep -c FAILED "$out/lapack.txt" | sed 's/^/failed: /'

if [ "$what" = reliability ]; then
	for sched in eager random dmda ws; do
		for prec in d s; do
			STARPU_SCHED=$sched $bin/tests/test_gs_edges $prec || echo "FAILED: test_gs_edges $prec under $sched"
		done
	done
	for sched in eager dmda; do
		STARPU_SCHED=$sched $bin/tests/test_concurrent_init 20 || echo "FAILED: test_concurrent_init under $sched"
	done
	$bin/tests/test_api_edges || echo "FAILED: test_api_edges"
	for sched in dmda eager ws; do
		STARPU_SCHED=$sched $bin/tests/test_wrap 4000 128 || echo "FAILED: test_wrap under $sched"
		STARPU_SCHED=$sched $bin/eigen_pipeline 2000 128 || echo "FAILED: eigen_pipeline under $sched"
		STARPU_SCHED=$sched $bin/sched_contexts 2000 128 || echo "FAILED: sched_contexts under $sched"
	done
	STARPU_SCHED=dmda sh tests/driver_checks.sh $bin || echo "FAILED: driver_checks.sh"
fi 2>&1 | tee "$out/reliability.txt"
[ "$what" = reliability ] && grep -c FAILED "$out/reliability.txt" | sed 's/^/failed: /'

if [ "$what" = mpi ]; then
	# Open MPI from Debian's .debs, relocated by OPAL_PREFIX (an image with a
	# PMIx of its own lends its components first: a warning a rank, no harm).
	# StarPU takes each rank's binding
	# (STARPU_WORKERS_GETBIND=1): otherwise every rank binds its workers to
	# the first cores.
	for f in .device/mpi-debs/*.deb; do dpkg -x "$f" $deps; done
	export OPAL_PREFIX=$deps/usr PATH="$deps/usr/bin:$PATH"
	export LD_LIBRARY_PATH="$lib/openmpi/lib:$here/$bin/mpi:$LD_LIBRARY_PATH"
	export PMIX_MCA_mca_base_component_path=$lib/pmix2/lib/pmix
	export PMIX_MCA_pcompress_base_silence_warning=1
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 STARPU_WORKERS_GETBIND=1
	cores=$(nproc)
	n=${HYLA_MPI_N:-8000}
	ranks() { # ranks P COMMAND...: P ranks, cores/P cores each
		p=$1
		shift
		mpirun.openmpi -np "$p" --map-by "slot:PE=$((cores / p))" --bind-to core "$@" ||
			echo "FAILED (exit $?): $p ranks: $*"
	}
	rm -rf /tmp/ref
	cp -r perfmodels/reference/h100-vm /tmp/ref
	export STARPU_HOSTNAME=vm STARPU_PERF_MODEL_DIR=/tmp/ref
	{
		sched=${HYLA_MPI_SCHED:-prio}
		echo "== cores alone, $sched: one process, then 1, 2 and 4 ranks at each nb"
		STARPU_NCUDA=0 STARPU_SCHED=$sched $bin/qr_householder "$n" --no-check --repeat 3
		for nb in ${HYLA_MPI_NBS:-64 128}; do
			for p in 1 2 4; do
				STARPU_NCUDA=0 STARPU_SCHED=$sched ranks $p $bin/qr_cols "$n" --nb "$nb" --no-check --repeat 3
			done
			echo "-- a core a rank left to MPI's thread and the submission (STARPU_NCPU=$((cores / 4 - 1)))"
			STARPU_NCPU=$((cores / 4 - 1)) STARPU_NCUDA=0 STARPU_SCHED=$sched ranks 4 $bin/qr_cols "$n" --nb "$nb" --no-check --repeat 3
		done
		STARPU_NCUDA=0 STARPU_SCHED=$sched ranks 4 $bin/qr_cols 4000 --check
		echo "== tall and skinny, cores alone: 1, 2 and 4 ranks"
		for p in 1 2 4; do
			STARPU_NCUDA=0 STARPU_SCHED=$sched ranks $p $bin/qr_rows 1000000 100 --no-check --repeat 3
		done
		if [ -n "${HYLA_MPI_GPU:-}" ]; then
			echo "== with the GPU (dmda): one process, then 1, 2 and 4 ranks sharing it"
			for i in 1 2; do
				STARPU_SCHED=dmda $bin/qr_householder "$n" --no-check --repeat 2 >/dev/null 2>&1
				STARPU_SCHED=dmda ranks 2 $bin/qr_cols "$n" --no-check --repeat 2 >/dev/null 2>&1
			done
			STARPU_SCHED=dmda $bin/qr_householder "$n" --no-check --repeat 3
			for p in 1 2 4; do
				STARPU_SCHED=dmda STARPU_LIMIT_CUDA_MEM=$((100000 / p)) ranks $p $bin/qr_cols "$n" --no-check --repeat 3
			done
			for sched in dmda eager; do
				STARPU_SCHED=$sched STARPU_LIMIT_CUDA_MEM=20000 ranks 4 $bin/qr_cols 4000 --check
				STARPU_SCHED=$sched STARPU_LIMIT_CUDA_MEM=20000 ranks 4 $bin/qr_rows 200000 100 --check
			done
		fi
	} 2>&1 | tee "$out/mpi$tag.txt"
	grep -c FAILED "$out/mpi$tag.txt" | sed 's/^/failed: /'
fi

if [ "$what" = compare ]; then
	old=.device/build-old
	warmup=${HYLA_COMPARE_WARMUP:-1}
	[ "${HYLA_COMPARE_MODELS:-reference}" = empty ] && warmup=${HYLA_COMPARE_WARMUP:-8}
	for build in new old; do
		rm -rf /tmp/hyla-models-$build
		if [ "${HYLA_COMPARE_MODELS:-reference}" = empty ]; then
			mkdir -p /tmp/hyla-models-$build
		else
			cp -r perfmodels/reference/h100-vm /tmp/hyla-models-$build
		fi
	done
	run() { # run BUILD ARGS...
		b=$1
		shift
		if [ "$b" = old ]; then
			LD_LIBRARY_PATH="$here/$old:$LD_LIBRARY_PATH" STARPU_PERF_MODEL_DIR=/tmp/hyla-models-old \
				STARPU_HOSTNAME=vm STARPU_SCHED=dmda $old/"$@"
		else
			STARPU_PERF_MODEL_DIR=/tmp/hyla-models-new STARPU_HOSTNAME=vm STARPU_SCHED=dmda $bin/"$@"
		fi
	}
	ifs=$IFS
	IFS=';'
	for cmd in ${HYLA_COMPARE:-qr_mgs 8000;qr_cgs 8000}; do
		IFS=$ifs
		for build in new old; do
			for i in $(seq "$warmup"); do
				run $build $cmd --no-check --repeat 2 >/dev/null 2>&1
			done
		done
		for round in 1 2; do
			for build in new old; do
				echo "$build: $(run $build $cmd --no-check --repeat 5 2>&1 | tail -1)"
			done
		done
	done 2>&1 | tee "$out/compare.txt"
fi

if [ "$what" = hr ]; then
	# Quick loop for the Hessenberg panel: its GPU checks, then hr_reduce 8000 timed.
	for sched in dmda eager; do
		for args in "d 1500 64 gpu" "d 1025 64" "s 600 32 auto 1e25" "d 600 32 auto 1e-150" \
			"d 1000 128" "s 900 100" "s 1200 64"; do
			STARPU_SCHED=$sched $bin/tests/test_gehrd $args || echo "FAILED (exit $?): test_gehrd $args under $sched"
		done
	done 2>&1 | tee "$out/checks-hr$tag.txt" | grep -v pass
	for i in 1 2 3; do STARPU_SCHED=dmda $bin/hr_reduce 8000 --no-check >/dev/null 2>&1; done
	for n in 8000 4000; do
		STARPU_SCHED=dmda $bin/hr_reduce $n --repeat 2 --stats ${HYLA_HR_LAPACK:+--lapack}
	done 2>&1 | tee "$out/bench-hr$tag.txt"
fi

if [ "$what" = hr-table ]; then
	# hr_reduce's table (models: STARPU_PERF_MODEL_DIR, e.g. calibrate's): 8000 with
	# LAPACK and Q, the other sizes, single precision, the split panel,
	# cores alone (dmda's split panel; peager's parallel panel and update at
	# 2000, 4000, 8000) against LAPACK, and the GPU work without the runtime
	# (gehrd_gpu_bench).
	{
		STARPU_SCHED=dmda $bin/hr_reduce 8000 --repeat 3 --lapack --want-q --stats --require-gpu
		for n in 2000 4000 12000 16000; do
			check=; [ $n -gt 8000 ] && check=--no-check
			STARPU_SCHED=dmda $bin/hr_reduce $n --no-check >/dev/null 2>&1
			STARPU_SCHED=dmda $bin/hr_reduce $n --repeat 2 --stats $check
		done
		STARPU_SCHED=dmda $bin/hr_reduce 8000 --prec s --repeat 3 --stats
		STARPU_SCHED=dmda $bin/hr_reduce 8000 --panel cpu --repeat 2 --stats --no-check
		STARPU_SCHED=dmda STARPU_CALIBRATE=0 STARPU_NCUDA=0 $bin/hr_reduce 4000 --repeat 2 --lapack --stats
		for n in 2000 4000 8000; do
			STARPU_SCHED=peager STARPU_NCUDA=0 $bin/hr_reduce $n --repeat 2 --lapack --stats
		done
		for nb in 96 64; do $bin/gehrd_gpu_bench 8000 $nb; done
	} 2>&1 | tee "$out/hr-table$tag.txt"
fi

if [ "$what" = big ] || [ "$what" = big-hr ]; then
	# n = 50000 (64-bit sizes; 20 GB per matrix) with the sampled checks: big
	# the QRs, big-hr the Hessenberg reduction with Q (minutes: a call of its own);
	# HYLA_BIG: other commands (driver:arg:...), HYLA_BIG_LIMIT seconds each.
	cmds="qr_mgs:50000 qr_cgs:50000:--no-reorth"
	[ "$what" = big-hr ] && cmds="hr_reduce:50000:--want-q:--panel:gpu"
	for cmd in ${HYLA_BIG:-$cmds}; do
		STARPU_SCHED=dmda timeout "${HYLA_BIG_LIMIT:-580}" $bin/$(echo $cmd | tr : ' ') --stats
		echo "exit $?: $cmd"
	done 2>&1 | tee "$out/$what$tag.txt"
fi

if [ "$what" = calibrate ]; then
	# Calibration from empty models, timed (perfmodels/calibrate.sh); then
	# hr_reduce 8000 with those models, and the schedule pictures of the fused
	# GPU panel and of the CPU panel with its GEMVs on the GPU.
	export STARPU_PERF_MODEL_DIR="$out/models" # comes back as models.tar.gz
	rm -rf "$STARPU_PERF_MODEL_DIR"
	timeout "${HYLA_CALIBRATE_LIMIT:-450}" sh perfmodels/calibrate.sh $bin 2>&1 | tee "$out/calibrate$tag.txt"
	{
		# Every driver and variant the calibration covered, once at 8000:
		# none may print the "not calibrated" note.
		for cmd in "hr_reduce --want-q" qr_householder qr_mgs qr_cgs tridiag_reduce \
			bidiag_reduce eigh "eigh --vectors" svd "svd --vectors"; do
			for prec in d s; do
				set -- $cmd
				d=$1; shift
				STARPU_SCHED=dmda $bin/$d 8000 --prec $prec --no-check "$@"
			done
		done
		STARPU_SCHED=dmda $bin/hr_reduce 8000 --no-check --repeat 5
	} 2>&1 | tee "$out/after-calibration$tag.txt"
	echo "notes after calibration: $(grep -c 'not calibrated' "$out/after-calibration$tag.txt")"
	tar -C "$out" -czf "$out/models.tar.gz" models && rm -rf "$out/models"
fi

if [ "$what" = parallel ] || [ "$what" = all ]; then
	# The parallel schedulers with the GPU: SPMD updates on combined workers.
	for sched in pheft peager; do
		for cmd in "tests/test_geqrf d 2000 1500 128" "tests/test_geqrf s 1000 2500 128" \
			"tests/test_gehrd d 1000 64" "tests/test_gehrd d 1025 64 cpu" "hr_reduce 2000 --want-q" \
			"qr_householder 2000 1500"; do
			STARPU_SCHED=$sched timeout 60 $bin/$cmd || echo "FAILED (exit $?): $cmd under $sched"
		done
	done 2>&1 | tee "$out/parallel$tag.txt"
fi

if [ "$what" = trace ] || [ "$what" = all ]; then
	# The schedule picture of the README: hr_reduce 8000 after calibration runs.
	for i in 1 2 3; do STARPU_SCHED=dmda $bin/hr_reduce 8000 --no-check >/dev/null 2>&1; done
	STARPU_SCHED=dmda $bin/hr_reduce 8000 --no-check --stats --trace "$out/hr_reduce-8000.svg" 2>&1 |
		tee "$out/trace$tag.txt"
fi

if [ "$what" = cgs ] || [ "$what" = all ]; then
	echo "== qr_cgs: Level-2 kernels, calibration runs (dmda), then timings with cuSOLVER"
	$bin/level2_bench 2>&1 | tee "$out/level2$tag.txt"
	$bin/gram_bench 2>&1 | tee "$out/gram$tag.txt"
	for i in 1 2 3; do
		for args in "" "--no-reorth" "--prec s" ${HYLA_CGS_NBS:+"--nb 128" "--nb 512"}; do
			STARPU_SCHED=dmda $bin/qr_cgs 8000 --no-check $args >/dev/null 2>&1
		done
	done
	{
		STARPU_SCHED=dmda $bin/qr_cgs 8000 --repeat 3 --lapack --cusolver --stats --require-gpu
		STARPU_SCHED=dmda $bin/qr_cgs 8000 --no-reorth --repeat 3 --cusolver --stats
		for nb in ${HYLA_CGS_NBS:-}; do
			STARPU_SCHED=dmda $bin/qr_cgs 8000 --nb $nb --repeat 3 --no-check
			STARPU_SCHED=dmda $bin/qr_cgs 8000 --nb $nb --repeat 3 --no-check --no-reorth
		done
		STARPU_SCHED=dmda $bin/qr_cgs 8000 --prec s --repeat 3 --cusolver
		STARPU_SCHED=dmda $bin/qr_mgs 8000 --repeat 3 --cusolver
		STARPU_SCHED=dmda $bin/qr_cgs 16000 8000 --repeat 2 --cusolver --no-check
		for level2 in hyla cublas; do # cublas is the default
			STARPU_SCHED=dmda HYLA_LEVEL2=$level2 $bin/qr_cgs 2000 --variant vector --repeat 2 --stats
		done
		STARPU_SCHED=dmda STARPU_CALIBRATE=0 STARPU_NCUDA=0 $bin/qr_cgs 4000 --repeat 2 --lapack
	} 2>&1 | tee "$out/bench-cgs$tag.txt"
	for model in hyla_cgs_project_d_v1 hyla_cgs_panel_d_v1; do
		.device/starpu/bin/starpu_perfmodel_display -s $model
	done > "$out/models-cgs$tag.txt" 2>&1
fi

if [ "$what" = householder ] || [ "$what" = all ]; then
	echo "== qr_householder: calibration runs (dmda), then timings with LAPACK and cuSOLVER"
	for i in 1 2 3; do STARPU_SCHED=dmda $bin/qr_householder 8000 --no-check >/dev/null 2>&1; done
	{
		STARPU_SCHED=dmda $bin/qr_householder 8000 --repeat 3 --lapack --cusolver --stats
		for size in "16000 8000" "16384" "8192 4096"; do
			STARPU_SCHED=dmda $bin/qr_householder $size --no-check >/dev/null 2>&1
			STARPU_SCHED=dmda $bin/qr_householder $size --repeat 2 --cusolver --no-check
		done
		STARPU_SCHED=dmda $bin/qr_householder 8000 --prec s --no-check >/dev/null 2>&1
		STARPU_SCHED=dmda $bin/qr_householder 8000 --prec s --repeat 3 --cusolver
		STARPU_SCHED=dmda STARPU_CALIBRATE=0 STARPU_NCUDA=0 $bin/qr_householder 4000 --no-check >/dev/null 2>&1
		STARPU_SCHED=dmda STARPU_CALIBRATE=0 STARPU_NCUDA=0 $bin/qr_householder 4000 --repeat 2 --lapack
	} 2>&1 | tee "$out/bench-householder$tag.txt"
fi

if [ "$what" = qr ]; then
	# Householder QR's GPU panel: the kernel alone against LAPACK, the QR's
	# checks under each scheduler, then qr_householder 8000 at each nb
	# (HYLA_QR_NBS) after two calibration runs, and with the peers.
	{
		$bin/tests/test_geqr2_gpu || echo "FAILED (exit $?): test_geqr2_gpu"
		for sched in dmda eager random ws; do
			for args in "d 3000 2000 128" "d 2048 2048 256" "d 1500 4000 128" "s 3000 1000 128" \
				"d 777 333 64" "d 8000 1000 192" "s 2000 2000 256"; do
				STARPU_SCHED=$sched $bin/tests/test_geqrf $args || echo "FAILED (exit $?): test_geqrf $args under $sched"
			done
			STARPU_SCHED=$sched $bin/tests/test_codelets 3000 2000 128 || echo "FAILED: test_codelets under $sched"
			STARPU_SCHED=$sched $bin/tests/test_codelets 3000 2000 128 steps || echo "FAILED: test_codelets steps under $sched"
			STARPU_SCHED=$sched STARPU_NCPU=0 $bin/tests/test_codelets 1000 700 64 steps ||
				echo "FAILED: test_codelets steps, GPU alone, under $sched"
		done
	} 2>&1 | tee "$out/checks-qr$tag.txt" | grep -v "pass$"
	grep -c FAILED "$out/checks-qr$tag.txt" | sed 's/^/failed checks: /'
	{
		for nb in ${HYLA_QR_NBS:-64 128 192 256}; do
			for i in 1 2; do STARPU_SCHED=dmda $bin/qr_householder 8000 --nb $nb --no-check >/dev/null 2>&1; done
			STARPU_SCHED=dmda $bin/qr_householder 8000 --nb $nb --repeat 3 --no-check --stats
		done
		STARPU_SCHED=dmda $bin/qr_householder 8000 --repeat 3 --lapack --cusolver
		STARPU_SCHED=dmda $bin/qr_householder 8000 --no-check --stats --trace "$out/qr_householder-8000.svg"
	} 2>&1 | tee "$out/bench-qr$tag.txt"
fi

if [ "$what" = cores ]; then
	# Cores alone: hr_reduce with STARPU_NCUDA=0 against
	# LAPACK at HYLA_CORES_NS (2000 4000 8000): peager (the panel and the
	# update as parallel tasks on one combined worker of the 16 cores), then
	# dmda at 4000 (the panels on the combined worker too; three calibration
	# runs first).
	for n in ${HYLA_CORES_NS:-2000 4000 8000}; do
		echo "-- STARPU_SCHED=peager $n"
		STARPU_SCHED=peager STARPU_NCUDA=0 $bin/hr_reduce $n --repeat 2 --lapack --stats
	done 2>&1 | tee "$out/cores$tag.txt"
	{
		for i in 1 2 3; do STARPU_SCHED=dmda STARPU_CALIBRATE=0 STARPU_NCUDA=0 $bin/hr_reduce 4000 --no-check >/dev/null 2>&1; done
		echo "-- STARPU_SCHED=dmda 4000"
		STARPU_SCHED=dmda STARPU_CALIBRATE=0 STARPU_NCUDA=0 $bin/hr_reduce 4000 --repeat 2 --lapack --stats
	} 2>&1 | tee -a "$out/cores$tag.txt"
fi

if [ "$what" = reductions-quick ]; then
	# The reductions' GPU panels checked under each scheduler, then
	# tridiag_reduce, bidiag_reduce and hr_reduce --want-q (orghr) at 8000
	# after calibration runs, with cuSOLVER (a call within the device limit).
	for sched in ${HYLA_SCHEDS:-dmda eager random ws}; do
		for args in "d 3000 L" "s 2000 L" "d 1000 U"; do
			STARPU_SCHED=$sched $bin/tests/test_sytrd $args || echo "FAILED (exit $?): test_sytrd $args under $sched"
		done
		for args in "d 3000 2000" "d 2049 2049" "s 2000 1500" "d 1500 3000"; do
			STARPU_SCHED=$sched $bin/tests/test_gebrd $args || echo "FAILED (exit $?): test_gebrd $args under $sched"
		done
		for args in "1000 64" "1500 128"; do
			STARPU_SCHED=$sched $bin/tests/test_codelets_reduce $args || echo "FAILED: test_codelets_reduce $args under $sched"
		done
	done 2>&1 | tee "$out/checks-reductions$tag.txt" | grep -v "pass$"
	grep -c FAILED "$out/checks-reductions$tag.txt" | sed 's/^/failed checks: /'
	{
		for cmd in "bidiag_reduce 8000" "tridiag_reduce 8000" "bidiag_reduce 4000"; do
			for i in 1 2 3; do STARPU_SCHED=dmda $bin/$cmd --no-check >/dev/null 2>&1; done
			STARPU_SCHED=dmda $bin/$cmd --repeat 2 --cusolver --stats
		done
		for i in 1 2 3; do STARPU_SCHED=dmda $bin/hr_reduce 8000 --no-check >/dev/null 2>&1; done
		STARPU_SCHED=dmda $bin/hr_reduce 8000 --want-q --repeat 3 --stats
	} 2>&1 | tee "$out/bench-reductions$tag.txt"
fi

if [ "$what" = reductions-trace ]; then
	# Where the reductions' time goes at 8000: after two calibration runs, a
	# traced run of each (the last of --repeat 2: a process's first call is
	# slower), summed by bench/trace_summary.py (GPU busy, idle, before the
	# first task: the matrix's upload).
	for cmd in ${HYLA_TRACE_CMDS:-tridiag_reduce bidiag_reduce hr_reduce}; do
		for i in 1 2; do STARPU_SCHED=dmda $bin/$cmd 8000 --no-check >/dev/null 2>&1; done
		STARPU_SCHED=dmda $bin/$cmd 8000 --no-check --repeat 2 --trace "$out/trace-$cmd$tag.svg" | tail -1
		python3 bench/trace_summary.py "$out/trace-$cmd$tag.svg"
	done 2>&1 | tee "$out/trace-reductions$tag.txt"
fi

if [ "$what" = tridiag ] || [ "$what" = all ]; then
	# HYLA_SCHEDS, HYLA_REDUCTIONS: fewer schedulers (none: no checks), drivers
	# (a quicker call). The models the runs calibrate come back as
	# models-reductions.tar.gz.
	cmds=${HYLA_REDUCTIONS:-tridiag_reduce bidiag_reduce}
	for sched in ${HYLA_SCHEDS:-dmda eager random ws}; do
		[ "$sched" = none ] && continue
		for args in "d 3000 L" "d 2049 L" "s 2000 L" "d 1000 U" "d 5000 L"; do
			STARPU_SCHED=$sched $bin/tests/test_sytrd $args || echo "FAILED (exit $?): test_sytrd $args under $sched"
		done
		case "$cmds" in *bidiag*)
			for args in "d 3000 2000" "d 2049 2049" "s 2000 1500" "d 1500 3000" "d 5000 5000"; do
				STARPU_SCHED=$sched $bin/tests/test_gebrd $args || echo "FAILED (exit $?): test_gebrd $args under $sched"
			done
		esac
		STARPU_SCHED=$sched $bin/tests/test_codelets_reduce 1000 64 || echo "FAILED: test_codelets_reduce under $sched"
	done 2>&1 | tee "$out/checks-tridiag$tag.txt" | grep -v "pass$"
	grep -c FAILED "$out/checks-tridiag$tag.txt" | sed 's/^/failed checks: /'
	echo "== $cmds: calibration runs (dmda), then timings with LAPACK, cuSOLVER"
	for cmd in $cmds; do
		for n in 8000 8000 8000 4000 16000; do STARPU_SCHED=dmda $bin/$cmd $n --no-check >/dev/null 2>&1; done
	done
	{
		for cmd in $cmds; do
			STARPU_SCHED=dmda $bin/$cmd 8000 --repeat 3 --cusolver --stats $([ $cmd = tridiag_reduce ] && echo --eig --lapack)
		done
		for n in 4000 16000; do
			for cmd in $cmds; do
				STARPU_SCHED=dmda $bin/$cmd $n --repeat 2 --no-check --cusolver --stats
			done
		done
		for cmd in $cmds; do
			STARPU_SCHED=dmda $bin/$cmd 8000 --prec s --repeat 2 --cusolver
		done
	} 2>&1 | tee "$out/bench-tridiag$tag.txt"
	tar -C "$STARPU_HOME/.starpu/sampling" -czf "$out/models-reductions.tar.gz" .
fi

if [ "$what" = solvers ]; then
	for sched in ${HYLA_SCHEDS:-dmda eager random ws}; do
		for args in "d 3000 L V random" "d 2049 U V clustered" "s 2000 L V known" "d 3000 L N graded" \
			"d 2500 U V repeated" "s 2000 L V repeated" "d 700 L N graded 16" "d 290 U V repeated 16" \
			"d 120 L N underflow" "d 300 L V underflow"; do
			STARPU_SCHED=$sched $bin/tests/test_syevd $args || echo "FAILED (exit $?): test_syevd $args under $sched"
		done
		for args in "d 3000 2000 S random" "d 1500 2500 A geometric" "s 2000 2000 S graded" \
			"d 2500 1500 O random" "d 3000 3000 N geometric" "d 3000 2000 A repeated" \
			"s 2600 2600 S repeated" "d 2000 2000 N repeated" "d 120 100 N underflow" "d 90 130 S underflow"; do
			STARPU_SCHED=$sched $bin/tests/test_gesdd $args || echo "FAILED (exit $?): test_gesdd $args under $sched"
		done
		for args in "d 2000 3000" "s 1500 2500"; do # the transposes on the GPU
			STARPU_SCHED=$sched $bin/tests/test_gebrd $args || echo "FAILED (exit $?): test_gebrd $args under $sched"
		done
		for cmd in "eigh 1000 --vectors" "eigh 1000" "svd 900 600 --vectors"; do
			STARPU_SCHED=$sched STARPU_NCPU=0 $bin/$cmd >/dev/null ||
				echo "FAILED (exit $?): STARPU_NCPU=0 $cmd under $sched"
		done
	done 2>&1 | tee "$out/checks-solvers$tag.txt" | grep -v "pass$"
	# The eigenvalues' two stages beside the GPU (taken from 12000 in double;
	# the check's LAPACK run takes about 20 s there).
	STARPU_SCHED=dmda $bin/eigh 12000 >/dev/null 2>&1 ||
		echo "FAILED (exit $?): eigh 12000 under dmda" | tee -a "$out/checks-solvers$tag.txt"
	grep -c FAILED "$out/checks-solvers$tag.txt" | sed 's/^/failed checks: /'
	{
		for cmd in "eigh 8000" "eigh 8000 --vectors" "svd 8000" "svd 8000 --vectors"; do
			for i in 1 2 3; do STARPU_SCHED=dmda $bin/$cmd --no-check >/dev/null 2>&1; done
		done
		for n in 4000 8000; do
			lapack=$([ $n = 4000 ] && echo --lapack)
			for cmd in "eigh $n" "eigh $n --vectors" "svd $n" "svd $n --vectors"; do
				STARPU_SCHED=dmda $bin/$cmd --repeat 3 --cusolver --stats $lapack
			done
		done
	} 2>&1 | tee "$out/solvers$tag.txt"
fi

if [ "$what" = scipy ]; then
	py=/tmp/hyla-py
	mkdir -p $py
	for f in .device/py/*.deb; do dpkg -x "$f" $py; done
	rm -rf /tmp/hyla-models-scipy
	cp -r perfmodels/reference/h100-vm /tmp/hyla-models-scipy
	PYTHONHOME=$py/usr PYTHONPATH=$py/usr/lib/python3/dist-packages STARPU_SCHED=dmda \
		STARPU_PERF_MODEL_DIR=/tmp/hyla-models-scipy STARPU_HOSTNAME=vm \
		$py/usr/bin/python3.11 bench/scipy_dropin.py --bin $bin --sizes 4000,8000 --repeat 3 |
		tee "$out/scipy-dropin$tag.txt"
fi

if [ "$what" = scaling ]; then
	rm -rf /tmp/hyla-models-scaling
	mkdir -p /tmp/hyla-models-scaling
	[ -f .device/models.tar.gz ] && tar -C /tmp/hyla-models-scaling -xzf .device/models.tar.gz
	STARPU_PERF_MODEL_DIR=/tmp/hyla-models-scaling STARPU_HOSTNAME=vm python3 bench/scaling.py run \
		--bin $bin --gpus "${HYLA_GPUS:-1,2}" --part "${HYLA_PART:-1/1}" --results "$out/scaling.jsonl"
	python3 bench/scaling.py table --results "$out/scaling.jsonl" | tee "$out/scaling$tag.md"
	tar -C /tmp/hyla-models-scaling -czf "$out/models.tar.gz" .
fi

if [ "$what" = panels ]; then
	# The reductions' GPU panels alone, µs per column (bench/reduction_panels.c).
	$bin/reduction_panels_bench 64 8000 4000 2000 1000 | tee "$out/reduction-panels$tag.txt"
	$bin/reduction_panels_bench 128 8000 2000 | tee -a "$out/reduction-panels$tag.txt"
fi

if [ "$what" = suite ]; then
	# The benchmark table (bench/suite.py), after a calibration run of each case.
	python3 bench/suite.py --bin $bin --sizes 2000,4000,8000 --precs d --repeat 1 --out /tmp/warm >/dev/null
	python3 bench/suite.py --bin $bin --sizes 2000,4000,8000 --precs d,s --repeat 3 --cusolver --out "$out"
fi

if [ "$what" = profile ]; then
	# Boost clocks and warm caches as in a real run; kernels still run one at a time.
	for skip in 2000 30000 60000; do
		echo "== hr_reduce 8000: GPU time (us) by kernel, launches $skip to $((skip + 400))"
		STARPU_SCHED=dmda /usr/local/cuda/bin/ncu --clock-control none --cache-control none \
			--launch-skip $skip --launch-count 400 --metrics gpu__time_duration.sum --csv \
			$bin/hr_reduce 8000 --no-check 2>&1 | grep '^"' | awk -F'","' 'NR > 1 {
				name = $5; sub(/\(.*/, "", name); sub(/^void /, "", name); name = substr(name, 1, 48)
				v = $NF; gsub(/[",]/, "", v); t[name] += v / 1000; c[name]++ }
			END { for (k in t) printf "%9.1f us %5d launches %7.2f us each  %s\n", t[k], c[k], t[k] / c[k], k }' |
			sort -n -r
	done 2>&1 | tee "$out/profile$tag.txt"
fi

if [ "$what" = bench ] || [ "$what" = all ]; then
	echo "== hr_reduce: calibration runs (dmda), then timings"
	for i in 1 2 3; do
		for args in "--want-q" "--prec s" "--panel cpu"; do
			STARPU_SCHED=dmda $bin/hr_reduce 8000 --no-check $args >/dev/null 2>&1
		done
	done
	STARPU_SCHED=dmda STARPU_CALIBRATE=0 STARPU_NCUDA=0 $bin/hr_reduce 4000 --no-check >/dev/null 2>&1
	{
		STARPU_SCHED=dmda $bin/hr_reduce 8000 --repeat 2 --lapack --require-gpu --stats --want-q
		for panel in gpu cpu; do
			STARPU_SCHED=dmda $bin/hr_reduce 8000 --panel $panel --repeat 2 --no-check --stats
		done
		for n in 2000 4000 ${HYLA_HR_BIG:-}; do
			STARPU_SCHED=dmda $bin/hr_reduce $n --repeat 2 --no-check --stats
		done
		STARPU_SCHED=dmda $bin/hr_reduce 8000 --prec s --repeat 2 --no-check --stats
		STARPU_SCHED=dmda STARPU_CALIBRATE=0 STARPU_NCUDA=0 $bin/hr_reduce 4000 --lapack --repeat 2 --stats
		for env in "STARPU_NCPU=8" "HYLA_NB=16" "STARPU_SCHED=lws"; do
			echo "-- STARPU_NCUDA=0 $env"
			nb=$(echo "$env" | sed -n 's/HYLA_NB=//p')
			env STARPU_SCHED=dmda STARPU_CALIBRATE=0 STARPU_NCUDA=0 $env $bin/hr_reduce 4000 --no-check --repeat 2 ${nb:+--nb $nb}
		done
	} 2>&1 | tee "$out/bench-hr$tag.txt"
	[ -n "${HYLA_HR_ONLY:-}" ] && exit 0
	echo "== qr_mgs: calibration runs (dmda), then timings"
	for i in 1 2 3; do
		for prec in d s; do
			STARPU_SCHED=dmda $bin/qr_mgs 8000 --prec $prec --no-check --repeat 2 >/dev/null 2>&1
		done
	done
	{
		STARPU_SCHED=dmda STARPU_WORKER_STATS=1 $bin/qr_mgs 8000 --repeat 3 --lapack --require-gpu --stats
		for env in "STARPU_NCPU=0" "STARPU_NCPU=1" "STARPU_NCUDA=0" "STARPU_SCHED=eager" \
			"STARPU_SCHED=dmdas" "STARPU_SCHED=ws" "HYLA_NB=256" "HYLA_NB=384"; do
			echo "-- $env"
			nb=$(echo "$env" | sed -n 's/HYLA_NB=//p')
			env STARPU_SCHED=dmda $env $bin/qr_mgs 8000 --repeat 3 --no-check --stats ${nb:+--nb $nb}
		done
		STARPU_SCHED=dmda $bin/qr_mgs 8000 --prec s --repeat 3 --stats
		STARPU_SCHED=dmda $bin/qr_mgs 16000 8000 --repeat 3 --stats
		STARPU_SCHED=dmda $bin/qr_mgs 8192 4096 --repeat 3 --stats
		STARPU_SCHED=dmda $bin/qr_mgs 2000 --form vector --stats
	} 2>&1 | tee "$out/bench$tag.txt"
	for model in hyla_mgs_panel_d_v4 hyla_mgs_update_d_v2; do
		.device/starpu/bin/starpu_perfmodel_display -s $model
	done > "$out/models$tag.txt" 2>&1
fi
