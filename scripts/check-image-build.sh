#!/usr/bin/env bash
# Builds the real Dockerfile, every stage, with podman (buildah underneath), without Docker Hub.
#
# Docker Hub is out of reach here, so the base `node:20-bookworm-slim` is a stand-in made from this
# machine's Node (node, npm, headers) on a debootstrapped Debian 12 (minbase), with the official
# image's `node` user (uid 1000). It is kept in .tools/image-base/ and loaded into podman once.
#
#   bash scripts/check-image-build.sh            # installs podman/runc/debootstrap when missing, builds
#   IMAGE_TAG=... bash scripts/check-image-build.sh
#
# test/operations/image-build.test.ts runs this and then starts the image's components read-only as
# uid 1000 (`IMAGE_BUILD_CHECK=1`; `.ci/run` does).
set -euo pipefail
cd "$(dirname "$0")/.."

BASE=docker.io/library/node:20-bookworm-slim
IMAGE_TAG=${IMAGE_TAG:-localhost/grid-payments:check}
CACHE=.tools/image-base
say() { printf 'check-image-build: %s\n' "$*"; }

need_tools() {
  local missing=()
  command -v podman >/dev/null || missing+=(podman)
  command -v runc >/dev/null || missing+=(runc)
  command -v debootstrap >/dev/null || missing+=(debootstrap)
  [ ${#missing[@]} -eq 0 ] && return
  say "installing ${missing[*]} (apt)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman runc debootstrap fuse-overlayfs uidmap >/dev/null
}

# The stand-in base: Debian 12 + this machine's Node where the official image keeps it (/usr/local).
make_base_archive() {
  local rootfs="$CACHE/rootfs" node_version
  node_version=$(node -p 'process.versions.node')
  case "$node_version" in 20.*) ;; *) say "this machine's Node is $node_version, not 20"; exit 1 ;; esac
  rm -rf "$rootfs" && mkdir -p "$rootfs"
  say "debootstrap Debian 12 (minbase) into $rootfs"
  debootstrap --variant=minbase bookworm "$rootfs" http://deb.debian.org/debian >"$CACHE/debootstrap.log" 2>&1 \
    || { tail -20 "$CACHE/debootstrap.log"; exit 1; }
  local node_prefix
  node_prefix=$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")
  install -D -m 0755 "$(readlink -f "$(command -v node)")" "$rootfs/usr/local/bin/node"
  mkdir -p "$rootfs/usr/local/lib/node_modules" "$rootfs/usr/local/include" "$rootfs/usr/local/etc"
  cp -a "$node_prefix/lib/node_modules/npm" "$rootfs/usr/local/lib/node_modules/npm"
  cp -a "$node_prefix/include/node" "$rootfs/usr/local/include/node"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
  # This machine's npm settings: the CA bundle it trusts, and headers from the image (node-gyp offline).
  install -D -m 0644 /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/ca-certificates.crt"
  printf 'cafile=/etc/ssl/certs/ca-certificates.crt\nnodedir=/usr/local\nupdate-notifier=false\n' \
    >"$rootfs/usr/local/etc/npmrc"
  chroot "$rootfs" groupadd --gid 1000 node
  chroot "$rootfs" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/archives/*.deb
  tar -C "$rootfs" --numeric-owner -cf "$CACHE/node-20-bookworm-slim.tar.partial" .
  mv "$CACHE/node-20-bookworm-slim.tar.partial" "$CACHE/node-20-bookworm-slim.tar"
  echo "$node_version" >"$CACHE/node-version"
  rm -rf "$rootfs"
}

load_base() {
  if podman image exists "$BASE"; then say "base $BASE present"; return; fi
  mkdir -p "$CACHE"
  [ -f "$CACHE/node-20-bookworm-slim.tar" ] || make_base_archive
  say "importing the stand-in $BASE (Node $(cat "$CACHE/node-version"))"
  podman import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change "ENV NODE_VERSION=$(cat "$CACHE/node-version")" \
    --change 'CMD ["node"]' \
    "$CACHE/node-20-bookworm-slim.tar" "$BASE" >/dev/null
}

need_tools
start=$(date +%s)
load_base
base_done=$(date +%s)
say "building every stage of Dockerfile as $IMAGE_TAG"
# --pull=never: the stand-in base, never a registry; --network=host: npm and apt reach out as on this machine.
podman build --pull=never --network=host --layers --format docker -f Dockerfile -t "$IMAGE_TAG" .
end=$(date +%s)
say "base $((base_done - start)) s, build $((end - base_done)) s"
say "image $IMAGE_TAG built"
