#!/usr/bin/env bash
# Builds a minimal local base image from the host's node binary and the shared
# libraries it links (for machines that cannot pull images). Usage:
#   ./scripts/build-base-image.sh [TAG]      (default fermata-node-base:local)
set -euo pipefail
tag=${1:-fermata-node-base:local}
node_bin=$(readlink -f "$(command -v node)")
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT

mkdir -p "$root/usr/local/bin" "$root/etc" "$root/tmp" "$root/var/lib/fermata"
chmod 1777 "$root/tmp"
cp "$node_bin" "$root/usr/local/bin/node"
# Every library node links, at the same path, plus the dynamic loader.
for lib in $(ldd "$node_bin" | grep -o '/[^ ]*'); do
  mkdir -p "$root$(dirname "$lib")"
  cp -L "$lib" "$root$lib"
done
# Name resolution and a non-root user for the server.
cp -L /etc/nsswitch.conf "$root/etc/" 2>/dev/null || echo 'hosts: files dns' > "$root/etc/nsswitch.conf"
for lib in /lib/x86_64-linux-gnu/libnss_dns.so.2 /lib/x86_64-linux-gnu/libnss_files.so.2 /lib/x86_64-linux-gnu/libresolv.so.2; do
  if [ -e "$lib" ]; then mkdir -p "$root$(dirname "$lib")"; cp -L "$lib" "$root$lib"; fi
done
printf 'root:x:0:0:root:/root:/sbin/nologin\nfermata:x:10001:10001:fermata:/var/lib/fermata:/sbin/nologin\n' > "$root/etc/passwd"
printf 'root:x:0:\nfermata:x:10001:\n' > "$root/etc/group"
chown 10001:10001 "$root/var/lib/fermata"

cat > "$root/Dockerfile" <<'DOCKERFILE'
FROM scratch
COPY . /
DOCKERFILE
docker build -q -t "$tag" "$root" >/dev/null
echo "$tag"
