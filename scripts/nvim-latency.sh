#!/bin/sh
# Times `skelpad lsp` through a real Neovim client, headless: hover,
# definition, references, rename, completion, document symbols, full
# semantic tokens and an edit to its diagnostics, on a generated script
# (default: 1000 bones in the `plain` style, 10 animations), each asked
# RUNS times (default 21); prints median and slowest in ms.
#   scripts/nvim-latency.sh [STYLE [BONES [ANIMS]]]
# Needs `nvim` (Debian 12: 0.7.2) and release builds of skelpad and the
# profile_pipeline example (SKELPAD=..., GEN=... or they are built).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
style=${1:-plain}; bones=${2:-1000}; anims=${3:-10}
target=${CARGO_TARGET_DIR:-$root/target}
if [ -z "${SKELPAD:-}" ]; then
  (cd "$root" && cargo build --release --quiet --no-default-features)
  SKELPAD="$target/release/skelpad"
fi
if [ -z "${GEN:-}" ]; then
  (cd "$root" && cargo build --release --quiet --example profile_pipeline)
  GEN="$target/release/examples/profile_pipeline"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$GEN" script "$style" "$bones" "$anims" >"$work/rig.skel2d" 2>/dev/null
cat >"$work/init.lua" <<LUA
vim.g.do_filetype_lua = 1
vim.filetype.add({ extension = { skel2d = 'skel2d' } })
vim.api.nvim_create_autocmd('FileType', {
  pattern = 'skel2d',
  callback = function(args)
    local id = vim.lsp.start_client({
      name = 'skelpad',
      cmd = { '$SKELPAD', 'lsp' },
      root_dir = vim.fn.getcwd(),
      -- Measure the server, not the client's wait before it sends a change.
      flags = { debounce_text_changes = 0 },
      on_init = function() vim.b[args.buf].skelpad_ready = true end,
    })
    vim.lsp.buf_attach_client(args.buf, id)
  end,
})
LUA
cd "$work"
timeout 600 nvim --headless -u init.lua rig.skel2d \
  -c "lua dofile('$root/scripts/nvim-latency.lua')" >nvim.out 2>&1 || true
echo "$(nvim --version | head -1); $style, $bones bones, $anims animations: $(wc -l <rig.skel2d) lines, $(wc -c <rig.skel2d) bytes"
if [ ! -s nvim-latency.txt ]; then
  echo "no result; Neovim said:"; cat nvim.out; exit 1
fi
cat nvim-latency.txt
