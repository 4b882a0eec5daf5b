#!/bin/sh
# Checks `skelpad lsp` through a real Neovim client, headless, with the
# Neovim 0.7-0.10 configuration block of editors/README.md exactly as
# written there. Needs `nvim` (Debian 12: `apt-get install neovim`, 0.7.2)
# and a built skelpad (SKELPAD=path, default target/debug/skelpad).
# Exits 1 and prints what Neovim saw when something is off.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
skelpad=${SKELPAD:-$root/target/debug/skelpad}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin"
ln -s "$skelpad" "$work/bin/skelpad"
# The block that starts with `-- Neovim 0.7 to 0.10`, up to its closing fence.
awk '/^-- Neovim 0.7 to 0.10/{on=1} on&&/^```/{exit} on{print}' \
  "$root/editors/README.md" >"$work/init.lua"
printf 'skeleton\n    hip l10   \n        arm l5\t\n\tarm l3\nanim "walk" 10fps\n\tarn\n\t\tx 0 -> 5\n' >"$work/rig.skel2d"
cd "$work"
PATH="$work/bin:$PATH" timeout 60 nvim --headless -u init.lua rig.skel2d \
  -c "lua dofile('$root/scripts/nvim-check.lua')" >/dev/null 2>&1 || true
nvim --version | head -1
cat nvim-result.txt
expect() {
  grep -qxF "$1" nvim-result.txt || { echo "MISSING: $1"; exit 1; }
}
expect 'filetype=skel2d'
expect 'attached=true'
expect 'line 2: <TAB>hip l10'
expect 'line 3: <TAB>arm l5'
expect 'diagnostic: unknown bone `arn`; did you mean `arm`?'
expect 'completion after anim: "walk"'
expect 'code actions on a key: Move key to frame 4 | Move key to frame 6 | Delete key at frame 5'
expect 'after moving: <TAB><TAB>x 0 6:> 5'
expect 'code actions on a header: Duplicate animation "walk" | Delete animation "walk"'
expect 'after duplicating: anim "walk-copy" 10fps'
expect 'after renaming: anim "stride" 10fps'
echo "ok"
