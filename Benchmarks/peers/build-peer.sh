# Sourced by the peer scripts: `build_peer NAME [LINK FLAGS...]` installs Debian's libbox2d-dev
# when missing (needs root or sudo), builds Benchmarks/peers/NAME.cpp with g++ -O2 into
# .build-peers/ when it or the shared header is newer, and sets `peer` to the binary; then, unless
# WORLDSWEEP_BIN is set, builds the release worldsweep and sets WORLDSWEEP_BIN.
build_peer() {
    local name="$1"; shift
    if [ ! -f /usr/include/box2d/box2d.h ]; then
        local SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
        echo "peers: installing libbox2d-dev (Box2D 2.4.1)" >&2
        $SUDO apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends libbox2d-dev g++ >/dev/null
    fi
    mkdir -p .build-peers
    peer=".build-peers/$name"
    local source="Benchmarks/peers/$name.cpp"
    if [ ! -x "$peer" ] || [ "$source" -nt "$peer" ] || [ Benchmarks/peers/uikit_box2d.h -nt "$peer" ]; then
        g++ -O2 -std=c++17 -o "$peer" "$source" -lbox2d "$@"
    fi
    if [ -z "${WORLDSWEEP_BIN:-}" ]; then
        swift build -c release --product worldsweep >/dev/null
        WORLDSWEEP_BIN="$(swift build -c release --show-bin-path)/worldsweep"
    fi
}
