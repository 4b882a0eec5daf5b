-- Driven by scripts/nvim-latency.sh inside a headless Neovim: times the
-- language server's answers through Neovim's own client (its JSON over
-- stdio, both ways) on the script that is open, and writes one line per
-- request to nvim-latency.txt: name, median and slowest of the runs, in ms.
local buf = vim.api.nvim_get_current_buf()
local uri = vim.uri_from_bufnr(buf)
local out = {}
local runs = tonumber(os.getenv('RUNS') or '21')
vim.wait(20000, function() return #vim.lsp.buf_get_clients(buf) > 0 end, 10)
vim.wait(20000, function() return vim.b.skelpad_ready end, 10)

-- The first line (0-based) whose text matches `pat`, and the column of
-- the match.
local function find(pat)
  for i, l in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    local c = l:find(pat)
    if c then return i - 1, c - 1 end
  end
  error('no line matches ' .. pat)
end

local function median(t)
  table.sort(t)
  return t[math.floor(#t / 2) + 1], t[#t]
end

local function time(name, method, params)
  local ms = {}
  for _ = 1, runs do
    local t0 = vim.loop.hrtime()
    local res = vim.lsp.buf_request_sync(buf, method, params, 10000)
    local dt = (vim.loop.hrtime() - t0) / 1e6
    local ok = false
    for _, r in pairs(res or {}) do ok = ok or (r.result ~= nil and r.err == nil) end
    if not ok then error(name .. ': no answer') end
    table.insert(ms, dt)
  end
  local med, max = median(ms)
  table.insert(out, string.format('%-24s median %7.2f ms   slowest %7.2f ms', name, med, max))
end

local td = { uri = uri }
-- A bone reference on an animation item line (the last animation's first
-- item): hover, definition, references and rename ask there.
local item_line, _ = find('^\t[%w.]+$')
local item_col = 1
local at_item = { textDocument = td, position = { line = item_line, character = item_col } }
time('hover', 'textDocument/hover', at_item)
time('definition', 'textDocument/definition', at_item)
time('references', 'textDocument/references',
  { textDocument = td, position = at_item.position, context = { includeDeclaration = true } })
time('rename', 'textDocument/rename',
  { textDocument = td, position = at_item.position, newName = 'zz' })
-- Completion of the item's name after its first two characters.
time('completion', 'textDocument/completion',
  { textDocument = td, position = { line = item_line, character = item_col + 2 } })
time('document symbols', 'textDocument/documentSymbol', { textDocument = td })
time('semantic tokens, full', 'textDocument/semanticTokens/full', { textDocument = td })

-- An edit (a digit typed into a key's value, then taken back) to the
-- diagnostics published for it.
local key_line, key_col = find('%-> %d')
local ms = {}
for i = 1, runs do
  local version = vim.b.changedtick
  local text = (i % 2 == 1) and '1' or ''
  local col = key_col + 3
  local got = false
  local id = vim.api.nvim_create_autocmd('DiagnosticChanged', {
    buffer = buf, once = true, callback = function() got = true end,
  })
  local t0 = vim.loop.hrtime()
  if i % 2 == 1 then
    vim.api.nvim_buf_set_text(buf, key_line, col, key_line, col, { text })
  else
    vim.api.nvim_buf_set_text(buf, key_line, col, key_line, col + 1, { '' })
  end
  if not vim.wait(10000, function() return got end, 0) then
    pcall(vim.api.nvim_del_autocmd, id)
    error('no diagnostics after edit ' .. i .. ' (tick ' .. version .. ')')
  end
  table.insert(ms, (vim.loop.hrtime() - t0) / 1e6)
end
local med, max = median(ms)
table.insert(out, string.format('%-24s median %7.2f ms   slowest %7.2f ms', 'edit to diagnostics', med, max))
vim.fn.writefile(out, 'nvim-latency.txt')
vim.cmd('qa!')
