-- Driven by scripts/nvim-check.sh inside a headless Neovim: checks the
-- language server through Neovim's own client and writes what it saw to
-- nvim-result.txt (one fact per line) before quitting.
local out = {}
local function say(s) table.insert(out, s) end
local buf = vim.api.nvim_get_current_buf()
say('filetype=' .. vim.bo.filetype)
local attached = vim.wait(10000, function() return #vim.lsp.buf_get_clients(buf) > 0 end, 50)
say('attached=' .. tostring(attached))
vim.wait(10000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
-- `gq` over lines 2 and 3 (space indentation, trailing blanks).
vim.api.nvim_win_set_cursor(0, { 2, 0 })
vim.cmd('normal! gqj')
vim.wait(1000, function()
  return vim.api.nvim_buf_get_lines(buf, 2, 3, false)[1] == '\tarm l5'
end, 50)
for i, l in ipairs(vim.api.nvim_buf_get_lines(buf, 0, 4, false)) do
  say(string.format('line %d: %s', i, (l:gsub('\t', '<TAB>'))))
end
vim.wait(2000, function()
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.message:find('did you mean') then return true end
  end
  return false
end, 50)
for _, d in ipairs(vim.diagnostic.get(buf)) do say('diagnostic: ' .. d.message) end
-- Completion after `anim ` on a new last line.
local n = vim.api.nvim_buf_line_count(buf)
vim.api.nvim_buf_set_lines(buf, n, n, false, { 'anim ' })
vim.wait(300)
local res = vim.lsp.buf_request_sync(buf, 'textDocument/completion', {
  textDocument = { uri = vim.uri_from_bufnr(buf) },
  position = { line = n, character = 5 },
}, 3000)
for _, r in pairs(res or {}) do
  local items = r.result or {}
  if items.items then items = items.items end
  local labels = {}
  for _, it in ipairs(items) do table.insert(labels, it.label) end
  say('completion after anim: ' .. table.concat(labels, ' '))
end
vim.fn.writefile(out, 'nvim-result.txt')
vim.cmd('qa!')
