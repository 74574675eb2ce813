#!/usr/bin/env bash
# Builds the production image from deploy/Dockerfile. Usage:
#   ./scripts/build-image.sh [--base IMAGE] [--tag TAG]
# Stages the built packages with their production dependencies as the context,
# so the image needs no npm and no network.
set -euo pipefail
cd "$(dirname "$0")/.."
base=node:20-bookworm-slim
tag=fermata:local
while [ $# -gt 0 ]; do
  case "$1" in
    --base) base=$2; shift 2 ;;
    --tag) tag=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done

[ -d packages/cli/dist ] || npm run --silent build
ctx=$(mktemp -d)
trap 'rm -rf "$ctx"' EXIT
app="$ctx/app"
mkdir -p "$app"
cp package.json package-lock.json "$app/"
for pkg in packages/* test-cluster; do
  mkdir -p "$app/$pkg"
  cp "$pkg/package.json" "$app/$pkg/"
  [ -d "$pkg/dist" ] && cp -r "$pkg/dist" "$app/$pkg/"
  [ -d "$pkg/pb" ] && cp -r "$pkg/pb" "$app/$pkg/"
done
# Only what `fermata` needs at run time: the CLI workspace and what it depends on
# (not the test-only dependencies of other workspaces, such as testcontainers).
(cd "$app" && npm ci --omit=dev --workspace=@fermata/cli --no-audit --no-fund --loglevel=error --ignore-scripts >/dev/null)
find "$app" -name '*.map' -delete
cp deploy/Dockerfile "$ctx/Dockerfile"
mkdir -p "$ctx/data/fermata"
docker build -q --build-arg "BASE_IMAGE=$base" -t "$tag" "$ctx" >/dev/null
echo "$tag"
