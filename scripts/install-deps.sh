#!/usr/bin/env bash
# install-deps.sh: installs the Debian 12 packages wasched needs to build, test and benchmark —
# only those missing (checked with dpkg -s), so a machine that has them all never calls apt-get.
set -euo pipefail

packages=(
  cmake g++ make
  # ninja-build: scripts/build.sh and scripts/configure-fuzz.sh use Ninja for a fresh build dir.
  ninja-build
  # ccache: CMakeLists.txt compiles through it when installed (warm rebuilds on the same machine).
  ccache
  # Reading manifests: simdjson (JSON) and libyaml (YAML; found through pkgconf). Writing them:
  # nlohmann-json and yaml-cpp's emitter.
  libsimdjson-dev libyaml-dev pkgconf
  libyaml-cpp-dev nlohmann-json3-dev libcli11-dev libfmt-dev libspdlog-dev libexpected-dev
  libgtest-dev libgmock-dev librapidcheck-dev libbenchmark-dev
  # libre2-dev: CEL `matches` in DRA device selectors (RE2, linear time, as cel-go).
  libre2-dev
  # libssl-dev: SHA-1 (libcrypto) for JobSet's and LeaderWorkerSet's derived names (issue 19).
  libssl-dev
  # libcurl4-openssl-dev: the Kubernetes API client (src/kube/, `schedule --kubeconfig`).
  libcurl4-openssl-dev
  # libcpp-httplib-dev: `wasched run`'s /healthz, /readyz and /metrics (src/live/). prometheus:
  # its promtool checks the /metrics text in tests/live.
  libcpp-httplib-dev prometheus
  # fuzz/ (scripts/fuzz.sh, the fuzz smoke of scripts/test.sh): clang and its libFuzzer /
  # sanitizer runtimes (a Recommends of clang, so --no-install-recommends needs it named).
  clang libclang-rt-dev
  # tests/report_render_test.cc: the HTML report rendered by headless Chromium (a font for its
  # text), the screenshot decoded with libpng.
  chromium fonts-dejavu-core libpng-dev
  # scripts/reference.sh (the upstream control plane the reference tests run): openssl makes its
  # PKI, curl polls health endpoints and creates RBAC objects, iproute2's ss checks ports. Go 1.26
  # itself comes with the machine (Debian 12's golang is too old).
  openssl curl iproute2
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg -s "$p" 2>/dev/null | grep -q '^Status: install ok installed'; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  sudo=(sudo)
fi
"${sudo[@]}" apt-get update
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
