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
-- Code actions: the `anim ` line goes again and `arn` becomes `arm`, then
-- the key `5` of the `x` timeline (line 7) and the `anim "walk"` header
-- (line 5).
vim.api.nvim_buf_set_lines(buf, n, n + 1, false, {})
vim.api.nvim_buf_set_text(buf, 5, 3, 5, 4, { 'm' })
vim.wait(300)
local function actions(line, character)
  local pos = { line = line, character = character }
  local r = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = { start = pos, ['end'] = pos },
    context = { diagnostics = {} },
  }, 3000)
  for _, x in pairs(r or {}) do return x.result or {} end
  return {}
end
local function titles(acts)
  local t = {}
  for _, a in ipairs(acts) do table.insert(t, a.title) end
  return table.concat(t, ' | ')
end
local function apply(acts, title)
  for _, a in ipairs(acts) do
    if a.title == title then vim.lsp.util.apply_workspace_edit(a.edit, 'utf-16') end
  end
  vim.wait(300)
end
local acts = actions(6, 9)
say('code actions on a key: ' .. titles(acts))
apply(acts, 'Move key to frame 6')
say('after moving: ' .. (vim.api.nvim_buf_get_lines(buf, 6, 7, false)[1]:gsub('\t', '<TAB>')))
acts = actions(4, 2)
say('code actions on a header: ' .. titles(acts))
apply(acts, 'Duplicate animation "walk"')
for _, l in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
  if l:find('walk%-copy') then say('after duplicating: ' .. l) end
end
-- Rename the animation on its header.
local r = vim.lsp.buf_request_sync(buf, 'textDocument/rename', {
  textDocument = { uri = vim.uri_from_bufnr(buf) },
  position = { line = 4, character = 7 },
  newName = 'stride',
}, 3000)
for _, x in pairs(r or {}) do
  if x.result then vim.lsp.util.apply_workspace_edit(x.result, 'utf-16') end
end
say('after renaming: ' .. vim.api.nvim_buf_get_lines(buf, 4, 5, false)[1])
vim.fn.writefile(out, 'nvim-result.txt')
vim.cmd('qa!')
