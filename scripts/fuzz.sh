#!/usr/bin/env bash
# The long fuzz run: the same seeded fuzzers as ./scripts/test, with more
# iterations and several seeds. A failure prints its seed and iteration;
# replay it exactly with FERMATA_TEST_FUZZ_SEED=<seed> and the same iterations.
#   ./scripts/fuzz.sh                    5 seeds x 5000 iterations
#   ./scripts/fuzz.sh 20 20000           20 seeds x 20000 iterations
#   FIRST_SEED=1000 ./scripts/fuzz.sh    seeds from 1000
set -euo pipefail
cd "$(dirname "$0")/.."

seeds="${1:-5}"
iterations="${2:-5000}"
first="${FIRST_SEED:-1}"
suites=(
  packages/raft/test/fuzz-log-files.test.ts
  packages/raft/test/fuzz-peer-port.serial.test.ts
  test-cluster/test/fuzz-client-api.test.ts
  test-cluster/test/fuzz-client-auth.test.ts
)

failed=0
for ((seed = first; seed < first + seeds; seed++)); do
  printf '== seed %d, %d iterations\n' "$seed" "$iterations" >&2
  if ! FERMATA_TEST_FUZZ_SEED="$seed" FERMATA_TEST_FUZZ_ITERATIONS="$iterations" \
    npx vitest run --testTimeout=0 --hookTimeout=300000 "${suites[@]}"; then
    printf '!! seed %d failed (replay: FERMATA_TEST_FUZZ_SEED=%d FERMATA_TEST_FUZZ_ITERATIONS=%d)\n' \
      "$seed" "$seed" "$iterations" >&2
    failed=$((failed + 1))
  fi
done
printf '== %d of %d seeds failed\n' "$failed" "$seeds" >&2
[ "$failed" -eq 0 ]
