-- Neovim (0.7+, headless, no plugins) as a second real LSP client for safereq.
--
-- Starts `python -m safereq serve` for a workspace folder, opens the given files, waits until the server is
-- ready and has published diagnostics for every opened file, then prints one line per diagnostic and,
-- optionally, the result of a hover and a go-to-definition request. test_nvim.py runs this and checks it.
--
-- Environment:
--   SAFEREQ_NVIM_PYTHON  Python interpreter with safereq installed
--   SAFEREQ_NVIM_ROOT    workspace folder
--   SAFEREQ_NVIM_FILES   files to open, relative to the root, separated by ';'
--   SAFEREQ_NVIM_AT      optional "relative/file.md:line:character" (0-based, UTF-16) for hover and definition
-- Output lines:
--   DIAG <file>\t<line>\t<byte column>\t<severity>\t<source>\t<code>\t<message>
--   HOVER <first line of the hover>     DEFINITION <uri>\t<line>
--   RESULT ok | RESULT timeout (exit status 0 / 1)

local python = assert(os.getenv('SAFEREQ_NVIM_PYTHON'), 'SAFEREQ_NVIM_PYTHON is not set')
local root = assert(os.getenv('SAFEREQ_NVIM_ROOT'), 'SAFEREQ_NVIM_ROOT is not set')
local files = vim.split(assert(os.getenv('SAFEREQ_NVIM_FILES'), 'SAFEREQ_NVIM_FILES is not set'), ';', { trimempty = true })
local at = os.getenv('SAFEREQ_NVIM_AT')

local function out(s) io.stdout:write(s .. '\n') end
local function finish(ok)
  out(ok and 'RESULT ok' or 'RESULT timeout')
  vim.cmd(ok and 'qall!' or 'cquit 1')
end

local state = nil
local published = {}
local publish = vim.lsp.handlers['textDocument/publishDiagnostics']

local client_id = vim.lsp.start_client({
  name = 'safereq',
  cmd = { python, '-m', 'safereq', 'serve', '--log-level', 'warning' },
  root_dir = root,
  workspace_folders = { { uri = vim.uri_from_fname(root), name = 'workspace' } },
  handlers = {
    ['safereq/status'] = function(_, result) state = result.state end,
    ['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
      published[result.uri] = true
      return publish(err, result, ctx, config)
    end,
  },
})
if not client_id then
  out('FAIL start_client returned nil')
  vim.cmd('cquit 2')
end

local buffers = {}
for _, rel in ipairs(files) do
  vim.cmd('edit ' .. vim.fn.fnameescape(root .. '/' .. rel))
  local bufnr = vim.api.nvim_get_current_buf()
  vim.bo[bufnr].filetype = 'markdown'
  vim.lsp.buf_attach_client(bufnr, client_id)
  buffers[rel] = bufnr
end

local ready = vim.wait(60000, function()
  if state ~= 'ready' then return false end
  for _, bufnr in pairs(buffers) do
    if not published[vim.uri_from_bufnr(bufnr)] then return false end
  end
  return true
end, 50)
if not ready then return finish(false) end

for _, rel in ipairs(files) do
  for _, d in ipairs(vim.diagnostic.get(buffers[rel])) do
    local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or ''
    local message = d.message:gsub('\n', ' ')
    out(string.format('DIAG %s\t%d\t%d\t%d\t%s\t%s\t%s', rel, d.lnum, d.col, d.severity, tostring(d.source), code, message))
  end
end

if at then
  local rel, line, character = at:match('^(.*):(%d+):(%d+)$')
  local bufnr = buffers[rel]
  local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = { line = tonumber(line), character = tonumber(character) } }
  for _, r in pairs(vim.lsp.buf_request_sync(bufnr, 'textDocument/hover', params, 10000) or {}) do
    if r.result and r.result.contents then
      out('HOVER ' .. (r.result.contents.value or ''):gsub('\n.*', ''))
    end
  end
  for _, r in pairs(vim.lsp.buf_request_sync(bufnr, 'textDocument/definition', params, 10000) or {}) do
    for _, loc in ipairs(r.result or {}) do
      out(string.format('DEFINITION %s\t%d', loc.uri or loc.targetUri, (loc.range or loc.targetSelectionRange).start.line))
    end
  end
end

vim.lsp.stop_client(client_id)
vim.wait(2000, function() return vim.lsp.get_client_by_id(client_id) == nil end, 50)
finish(true)
