#!/usr/bin/env bash
# Installs what WorldSweep needs on a fresh Debian/Ubuntu machine that has Swift. Safe to re-run:
# it only installs what is missing. Sourced by the other scripts.
set -euo pipefail

need_swift() {
    if ! command -v swift >/dev/null 2>&1; then
        echo "worldsweep setup: Swift is not on PATH. Install Swift 6 (https://www.swift.org/install/) and re-run." >&2
        exit 1
    fi
}

# Debian packages the build or the tests use.
apt_packages=(libopenblas-dev pkg-config)

install_missing() {
    local missing=()
    for p in "${apt_packages[@]}"; do
        dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    if [ "${WORLDSWEEP_NO_INSTALL:-}" = 1 ]; then
        echo "worldsweep setup: the build needs ${missing[*]} (apt), and WORLDSWEEP_NO_INSTALL=1 installs nothing" >&2
        exit 1
    fi
    if [ "$(id -u)" -ne 0 ] && ! command -v sudo >/dev/null 2>&1; then
        echo "worldsweep setup: need root (or sudo) to install: ${missing[*]}" >&2
        exit 1
    fi
    local SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO=sudo
    echo "worldsweep setup: installing ${missing[*]}" >&2
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

need_swift
install_missing
