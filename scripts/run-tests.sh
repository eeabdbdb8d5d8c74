#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs what is missing, builds everything and runs the whole test suite (ctest).
# Usage: scripts/run-tests.sh [extra ctest arguments for the main stage]
#
# Stages (TI_STAGES, space-separated; default "main", and "main asan fuzz" when CI=true; on a
# fresh clone on 2 cores, see README.md "Style and static checks"):
#   main  the dev preset (the ci preset, with -Werror, in CI): build, then the whole suite
#   asan  the dev-asan preset: ASan + UBSan, any sanitizer report (leaks included) fails the
#         test that caused it (halt_on_error, no recovery), over the whole suite by default
#         (TI_ASAN_SCOPE=full). TI_ASAN_SCOPE=subset is a quicker pass for local work: every
#         engine/adapter test (tests/core), every CLI test and the GUI tests that drive
#         third-party code we hand memory to (Graphviz, Qt Charts) or own worker results.
#   fuzz  the fuzz preset (clang, libFuzzer, ASan + UBSan): the corpus replay, then a
#         time-boxed run of the reader fuzzer (TI_FUZZ_SECONDS, default 120) on a copy of
#         tests/fuzz/corpus; a crash or a failed check fails the stage and leaves the input
#         in build/fuzz/artifacts
# Each step prints its wall time and its CPU seconds (user + sys of what it ran). With several stages, every one runs even if an earlier
# one failed, and the script fails at the end naming the failed ones.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${CI:-}" = "true" ]; then
  stages=${TI_STAGES:-main asan fuzz}
else
  stages=${TI_STAGES:-main}
fi
deps=()
case " $stages " in *" asan "* | *" fuzz "*) deps+=(--sanitizers) ;; esac
[ -n "${TI_DEPS_DONE:-}" ] || scripts/install-deps.sh "${deps[@]}"
jobs=$(nproc)

# Several stages: run each on its own, all of them even when one fails, then report.
read -ra stage_list <<<"$stages"
if [ "${#stage_list[@]}" -gt 1 ]; then
  failed=()
  for stage in "${stage_list[@]}"; do
    TI_STAGES=$stage TI_DEPS_DONE=1 bash "$0" "$@" || failed+=("$stage")
  done
  if [ "${#failed[@]}" -gt 0 ]; then
    echo "== failed stages: ${failed[*]}" >&2
    exit 1
  fi
  echo "== all stages passed: $stages" >&2
  exit 0
fi

# Wall time and CPU time (user + sys of everything the step ran): on a shared machine the CPU
# seconds are the comparable figure.
stage_start=0
stage_cpu=0
times_file=$(mktemp)
trap 'rm -f "$times_file"' EXIT
# `times` must run in this shell, not in $(...): a subshell counts only its own children.
children_cpu() {
  times >"$times_file"
  cpu=$(awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); t += a[1] * 60 + a[2] } printf "%d", t }' "$times_file")
}
begin() { stage_start=$SECONDS; children_cpu; stage_cpu=$cpu; echo "== $1" >&2; }
end() { children_cpu; echo "== $1 took $((SECONDS - stage_start)) s ($((cpu - stage_cpu)) CPU s)" >&2; }

for stage in $stages; do
  case $stage in
    main)
      preset=dev
      [ "${CI:-}" = "true" ] && preset=ci
      begin "build ($preset)"
      cmake --preset "$preset" >/dev/null
      cmake --build --preset "$preset" -j "$jobs"
      end "build ($preset)"
      begin "tests ($preset)"
      ctest --preset "$preset" -j "$jobs" "$@"
      end "tests ($preset)"
      ;;
    asan)
      scope=${TI_ASAN_SCOPE:-full}
      targets=()
      filter=()
      if [ "$scope" = subset ]; then
        # The GUI tests of the subset (see the header for why these).
        gui_tests="tst_graphpanel tst_memorychartpanel tst_memorychartasync tst_evidencepanels tst_detailspane"
        core_tests=$(cd tests/core && ls tst_*.cpp | sed 's/\.cpp$//' | tr '\n' ' ')
        read -ra targets <<<"candle-trace $core_tests $gui_tests"
        filter=(-R "^(cli_.*|$(echo $core_tests $gui_tests | tr ' ' '|'))\$")
        targets=("--target" "${targets[@]}")
      elif [ "$scope" != full ]; then
        echo "unknown TI_ASAN_SCOPE '$scope' (subset, full)" >&2
        exit 2
      fi
      begin "build (dev-asan, $scope)"
      cmake --preset dev-asan >/dev/null
      cmake --build --preset dev-asan -j "$jobs" "${targets[@]}"
      end "build (dev-asan, $scope)"
      begin "tests (dev-asan, $scope)"
      ctest --preset dev-asan -j "$jobs" "${filter[@]}"
      end "tests (dev-asan, $scope)"
      ;;
    fuzz)
      begin "build (fuzz)"
      cmake --preset fuzz >/dev/null
      cmake --build --preset fuzz -j "$jobs"
      end "build (fuzz)"
      begin "fuzz corpus replay and a ${TI_FUZZ_SECONDS:-120} s run"
      ctest --preset fuzz
      work=build/fuzz/run
      rm -rf "$work" && mkdir -p "$work/corpus" build/fuzz/artifacts
      cp tests/fuzz/corpus/* "$work/corpus/"
      rc=0
      ASAN_OPTIONS=halt_on_error=1:abort_on_error=1:detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
        build/fuzz/tests/fuzz/fuzz_reader -max_total_time="${TI_FUZZ_SECONDS:-120}" -max_len=16384 \
        -dict=tests/fuzz/reader.dict -artifact_prefix=build/fuzz/artifacts/ -print_final_stats=1 \
        "$work/corpus" >"$work/fuzz.log" 2>&1 || rc=$?
      grep -E '^#[0-9]+[[:space:]]+(INITED|DONE)|^stat::' "$work/fuzz.log" >&2 || true
      if [ $rc -ne 0 ]; then
        tail -n 60 "$work/fuzz.log" >&2
        echo "fuzzing failed (exit $rc); the input is in build/fuzz/artifacts" >&2
        exit 1
      fi
      end "fuzz corpus replay and a ${TI_FUZZ_SECONDS:-120} s run"
      ;;
    *)
      echo "unknown stage '$stage' (main, asan, fuzz)" >&2
      exit 2
      ;;
  esac
done
