# shellcheck shell=bash
# Sourced by the task scripts. Makes sure a Node.js >= 22 is first on PATH.
#
# Where the machine's Node is older, the exact Node release below is installed
# from the npm registry (the `node-<os>-<arch>` packages carry the official
# binary) into .tooling/, and put first on PATH. Nothing else is downloaded.

COWBOY_NODE_VERSION="22.23.3"
COWBOY_NODE_MIN_MAJOR=22

cowboy_node_major() {
  node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0
}

ensure_node() {
  local root="$1"
  if [ "$(cowboy_node_major)" -ge "$COWBOY_NODE_MIN_MAJOR" ]; then
    return 0
  fi
  local os arch
  os=$(uname -s | tr '[:upper:]' '[:lower:]')
  case "$(uname -m)" in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) echo "cowboy: unsupported CPU architecture $(uname -m)" >&2; return 1 ;;
  esac
  local pkg="node-$os-$arch"
  local dir="$root/.tooling/node-$COWBOY_NODE_VERSION"
  local bin="$dir/node_modules/$pkg/bin"
  if [ ! -x "$bin/node" ]; then
    echo "cowboy: machine Node is $(node --version 2>/dev/null || echo absent); installing Node $COWBOY_NODE_VERSION from the npm registry into .tooling/" >&2
    mkdir -p "$dir"
    (cd "$dir" && npm install --no-save --no-package-lock --no-audit --no-fund --loglevel=error --prefix "$dir" "$pkg@$COWBOY_NODE_VERSION") >&2
  fi
  export PATH="$bin:$PATH"
  if [ "$(cowboy_node_major)" -lt "$COWBOY_NODE_MIN_MAJOR" ]; then
    echo "cowboy: could not provide Node >= $COWBOY_NODE_MIN_MAJOR" >&2
    return 1
  fi
}
