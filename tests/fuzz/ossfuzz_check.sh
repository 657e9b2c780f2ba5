#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# ossfuzz_check.sh REPO DIR KERNEL_CACHE_DIR [TARGETS]: the ctest
# ossfuzz_build. Runs .clusterfuzzlite/build.sh as the OSS-Fuzz builders
# would, without docker or network: $SRC, $OUT, $WORK under DIR, clang
# (libFuzzer + ASan) and afl-clang-fast (AFL++), the cached kernel trees;
# then runs each binary on every input of its seed corpus zip, and
# libFuzzer on every dictionary of tests/fuzz/dict/ (a malformed entry
# is an error). TARGETS: comma-separated (default: every target of the
# table in tests/fuzz/CMakeLists.txt). Exit 77: skipped.
set -euo pipefail
repo=$1 dir=$2 cache=$3
targets=${4:-$(sed -n 's/^[[:space:]]*"\([A-Za-z0-9_]*\)|.*/\1/p' "$repo/tests/fuzz/CMakeLists.txt" | paste -sd,)}

for tool in clang afl-clang-fast unzip; do
	if ! command -v "$tool" >/dev/null; then
		echo "ossfuzz_check: $tool is missing: skipped (apt-get install clang afl++ unzip)"
		exit 77
	fi
done
driver=/usr/lib/afl/libAFLDriver.a
[ -f "$driver" ] || { echo "ossfuzz_check: $driver is missing: skipped"; exit 77; }

IFS=, read -r -a list <<<"$targets"
for engine in libfuzzer afl; do
	export SRC=$dir/src OUT=$dir/out-$engine WORK=$dir/work
	rm -rf "$OUT"
	mkdir -p "$SRC" "$OUT" "$WORK"
	export FUZZING_ENGINE=$engine TB_REPO=$repo KERNEL_CACHE_DIR=$cache
	export TB_FUZZ_TARGETS=$targets TB_BUILD_JOBS=${TB_BUILD_JOBS:-2}
	if [ "$engine" = libfuzzer ]; then
		export CC=clang CXX=clang++ LIB_FUZZING_ENGINE=-fsanitize=fuzzer
		export CFLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=address -fsanitize=fuzzer-no-link"
	else
		export CC=afl-clang-fast CXX=afl-clang-fast++ LIB_FUZZING_ENGINE=$driver AFL_QUIET=1
		export CFLAGS="-O1 -g"
	fi
	export CXXFLAGS=$CFLAGS
	echo "== build.sh, FUZZING_ENGINE=$engine"
	bash "$repo/.clusterfuzzlite/build.sh" >"$dir/build-$engine.log" 2>&1 || {
		tail -30 "$dir/build-$engine.log"
		echo "ossfuzz_check: build.sh failed for $engine (log $dir/build-$engine.log)"
		exit 1
	}
	for t in "${list[@]}"; do
		bin=$OUT/$t
		[ -x "$bin" ] || { echo "ossfuzz_check: $engine: no $bin"; exit 1; }
		zip=$OUT/${t}_seed_corpus.zip
		[ -f "$zip" ] || { echo "ossfuzz_check: $engine: no $zip"; exit 1; }
		seeds=$WORK/seeds-$engine-$t
		rm -rf "$seeds"
		unzip -q "$zip" -d "$seeds"
		n=$(ls "$seeds" | wc -l)
		[ "$n" -gt 0 ] || { echo "ossfuzz_check: $zip is empty"; exit 1; }
		# both engines' binaries run the files named on their command line
		"$bin" "$seeds"/* >"$WORK/run-$engine-$t.log" 2>&1 || {
			tail -30 "$WORK/run-$engine-$t.log"
			echo "ossfuzz_check: $engine: $t failed on its seed corpus"
			exit 1
		}
		if [ -f "$repo/tests/fuzz/dict/$t.dict" ] && ! cmp -s "$repo/tests/fuzz/dict/$t.dict" "$OUT/$t.dict"; then
			echo "ossfuzz_check: $engine: $OUT/$t.dict differs from tests/fuzz/dict/$t.dict"
			exit 1
		fi
		echo "$engine: $t ran its $n seed input(s)"
	done
done

# every dictionary parses (libFuzzer stops at a malformed line)
bin=$dir/out-libfuzzer/${list[0]}
for d in "$repo"/tests/fuzz/dict/*.dict; do
	[ -f "$d" ] || continue
	out=$("$bin" -dict="$d" -runs=1 2>&1) || { echo "$out" | tail -5; echo "ossfuzz_check: $d: rejected"; exit 1; }
	grep -q "Dictionary: [1-9][0-9]* entries" <<<"$out" || { echo "$out" | tail -5; echo "ossfuzz_check: $d: no entry parsed"; exit 1; }
	echo "dictionary $(basename "$d"): $(grep -o 'Dictionary: [0-9]* entries' <<<"$out")"
done
echo "ossfuzz_check: ok"
