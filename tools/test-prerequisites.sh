#!/usr/bin/env bash
# What vq's tests need besides npm packages: ffmpeg (encoded inputs), chromium (the
# browser and report tests), redis-server (the queue tests start their own on 127.0.0.1)
# and, on Linux, a WebGPU adapter without a GPU: Mesa's
# lavapipe from bookworm-backports (bookworm's own Mesa is too old for Dawn). Installs
# what is missing on Debian (as root, or through sudo); elsewhere, or without the rights
# to install, stops with one line naming what to install. Nothing is installed twice.
set -euo pipefail
cd "$(dirname "$0")/.."

have_chromium() {
  [ -n "${VQ_CHROMIUM:-}" ] && return 0
  local b
  for b in chromium chromium-browser google-chrome google-chrome-stable; do command -v "$b" >/dev/null && return 0; done
  return 1
}
have_lavapipe() {
  [ "$(uname -s)" != Linux ] && return 0 # Dawn uses Metal or D3D there
  ls /usr/share/vulkan/icd.d/lvp_icd*.json >/dev/null 2>&1 &&
    dpkg-query -W -f='${Version}' mesa-vulkan-drivers 2>/dev/null | grep -q '^2[4-9]\.'
}

packages=()
command -v ffmpeg >/dev/null || packages+=(ffmpeg)
command -v redis-server >/dev/null || packages+=(redis-server)
have_chromium || packages+=(chromium)
lavapipe=0
have_lavapipe || lavapipe=1
[ ${#packages[@]} -eq 0 ] && [ $lavapipe -eq 0 ] && exit 0

what="${packages[*]}"
[ $lavapipe -eq 1 ] && what="${what:+$what, }lavapipe (mesa-vulkan-drivers from bookworm-backports: bash .ci/install-lavapipe)"
sudo=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null && { sudo -n true 2>/dev/null || [ -t 0 ]; }; then sudo=sudo; else
    echo "vq tests need: $what; install them (as root: bash tools/test-prerequisites.sh)" >&2
    exit 1
  fi
fi
if ! command -v apt-get >/dev/null; then
  echo "vq tests need: $what; install them with your system's package manager" >&2
  exit 1
fi

echo "installing what the tests need: $what"
if [ ${#packages[@]} -gt 0 ]; then
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
fi
[ $lavapipe -eq 1 ] && bash .ci/install-lavapipe
exit 0
