#!/bin/bash -eu
# SPDX-License-Identifier: GPL-2.0-only
#
# OSS-Fuzz / ClusterFuzzLite build of the test bed's fuzz targets
# (tests/fuzz/fuzz_<target>.c): for $FUZZING_ENGINE (libfuzzer or afl)
# with the builder's $CC/$CFLAGS (sanitizer flags included), it puts in
# $OUT, per target: the binary <target>, <target>_seed_corpus.zip (the
# corpus and the regression inputs) and <target>.dict when there is one.
#
# Environment: SRC, OUT, WORK, CC, CXX, CFLAGS, CXXFLAGS, FUZZING_ENGINE,
# LIB_FUZZING_ENGINE as the builders set them; TB_REPO (default
# $SRC/mm-testbed); KERNEL_SRC / KERNEL_SRC_BEFORE, the 6.12 and 6.1
# trees (default: Debian's linux-source packages, extracted into
# KERNEL_CACHE_DIR, default $WORK/kernel-trees); TB_FUZZ_TARGETS, a
# comma-separated subset (default: every target).
# tests/fuzz/ossfuzz_check.sh runs this script outside docker (ctest).

repo=${TB_REPO:-$SRC/mm-testbed}
engine=${FUZZING_ENGINE:-libfuzzer}
build=$WORK/build-$engine

case "$engine" in
libfuzzer)
	defs=(-DTB_FUZZ_ENGINE=libfuzzer) ;;
afl)
	# the builder's AFL++ driver (main() for LLVMFuzzerTestOneInput)
	defs=(-DTB_FUZZ_ENGINE=afl "-DTB_AFL_DRIVER=${LIB_FUZZING_ENGINE:-/usr/lib/afl/libAFLDriver.a}") ;;
*)
	echo "build.sh: FUZZING_ENGINE=$engine: only libfuzzer and afl are built" >&2
	exit 1 ;;
esac

if [ -n "${TB_FUZZ_TARGETS:-}" ]; then
	IFS=, read -r -a targets <<<"$TB_FUZZ_TARGETS"
else
	# the table of tests/fuzz/CMakeLists.txt: "<target>|<libraries>|<kernel files>"
	mapfile -t targets < <(sed -n 's/^[[:space:]]*"\([A-Za-z0-9_]*\)|.*/\1/p' "$repo/tests/fuzz/CMakeLists.txt")
fi

cmake -S "$repo" -B "$build" \
	-DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="${CXX:-clang++}" \
	-DCMAKE_C_FLAGS="${CFLAGS:-}" -DCMAKE_CXX_FLAGS="${CXXFLAGS:-}" \
	-DKERNEL_SRC="${KERNEL_SRC:-}" -DKERNEL_SRC_BEFORE="${KERNEL_SRC_BEFORE:-}" \
	-DKERNEL_CACHE_DIR="${KERNEL_CACHE_DIR:-$WORK/kernel-trees}" \
	-DTB_FUZZ=ON -DTB_BENCH=OFF -DTB_SANITIZE= -DTB_COVERAGE=OFF "${defs[@]}"

for t in "${targets[@]}"; do
	cmake --build "$build" -j "${TB_BUILD_JOBS:-$(nproc)}" --target "fuzz_$t"
	cp "$build/tests/fuzz/fuzz_$t" "$OUT/$t"
	seeds=()
	for f in "$repo/tests/fuzz/corpus/$t"/* "$repo/tests/regress/$t"/*; do
		[ -f "$f" ] && [[ "$f" != *.txt ]] && seeds+=("$f")
	done
	rm -f "$OUT/${t}_seed_corpus.zip"
	if [ ${#seeds[@]} -gt 0 ]; then
		if command -v zip >/dev/null; then
			zip -q -j "$OUT/${t}_seed_corpus.zip" "${seeds[@]}"
		else
			python3 -m zipfile -c "$OUT/${t}_seed_corpus.zip" "${seeds[@]}"
		fi
	fi
	if [ -f "$repo/tests/fuzz/dict/$t.dict" ]; then
		cp "$repo/tests/fuzz/dict/$t.dict" "$OUT/$t.dict"
	fi
done
