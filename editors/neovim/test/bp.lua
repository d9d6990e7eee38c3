-- End-to-end tests of the blueprint language (*.bp, *.blueprint) in the
-- Neovim plugin: filetype detection (Android's Soong .bp files left
-- alone), the syntax file, the server attaching, and a diagnostic, hover,
-- completion and the plan on the .bp twin of the YAML fixture. Loaded by e2e.lua,
-- which passes its harness (test, check, wait_for, ...) in h.
return function(h)
  local test, check, wait_for = h.test, h.check, h.wait_for
  local bls, dir = h.bls, h.dir
  local ft = require('blueprint_ls.filetype')

  local fixture = dir .. '/app.bp'
  vim.fn.writefile(vim.fn.readfile(h.bp_fixture), fixture)
  vim.fn.mkdir(dir .. '/bp', 'p')

  local function open(path, lines)
    if lines then
      vim.fn.writefile(lines, path)
    end
    vim.cmd('edit ' .. vim.fn.fnameescape(path))
    return vim.api.nvim_get_current_buf()
  end

  test('blueprint language filetype detection', 'client', function()
    local cases = {
      { 'app.bp', nil, 'bluelink' },
      { 'x/project.bp', {}, 'bluelink' },
      { 'infra.blueprint', nil, 'bluelink' },
      { 'app.bp', { '# orders', '', 'version "2025-11-02"' }, 'bluelink' },
      { 'app.bp', { 'metadata {', '  owner = "me"', '}' }, 'bluelink' },
      { 'app.bp', { '    resource r: aws/s3/bucket {}' }, 'bluelink' },
      { 'Android.bp', {}, nil },
      { 'Android.bp', { 'version "2025-11-02"' }, nil },
      { 'build.bp', { '// Copyright', 'cc_binary {' }, nil },
      { 'build.bp', { 'cc_library {', '    name: "libx",', '}' }, nil },
      { 'build.bp', { 'cflags = ["-Wall"]' }, nil },
      { 'build.bp', { 'cflags += ["-O2"]' }, nil },
      { 'app.bp.bak', nil, nil },
      { 'notes.blueprintx', nil, nil },
      { 'app.blueprint.yaml', nil, 'yaml.bluelink' },
    }
    for _, c in ipairs(cases) do
      local got = ft.detect(c[1], c[2])
      check(got == c[3], 'detect(%q, %s) = %s, want %s', c[1], vim.inspect(c[2]), tostring(got), tostring(c[3]))
    end
    -- Real detection, on files with content.
    local soong = { '// An Android build file', 'cc_binary {', '    name: "tool",', '}' }
    local core_bp = vim.fn.has('nvim-0.10') == 1 and 'bp' or ''
    local files = {
      { 'new.bp', nil, 'bluelink' },
      { 'infra.blueprint', { 'version "2025-11-02"' }, 'bluelink' },
      { 'app.bp', { 'version "2025-11-02"', 'value x: string { value = "y" }' }, 'bluelink' },
      { 'Android.bp', soong, core_bp },
      { 'tools.bp', soong, core_bp },
    }
    for _, f in ipairs(files) do
      local b = open(dir .. '/bp/' .. f[1], f[2])
      check(vim.bo[b].filetype == f[3], '%s: filetype %q, want %q', f[1], vim.bo[b].filetype, f[3])
      if f[3] ~= 'bluelink' then
        check(#bls.clients(b) == 0, 'blueprint-ls attached to %s', f[1])
      end
      vim.cmd('bwipeout!')
    end
  end)

  -- syntax_at returns the syntax group at the first occurrence of text in
  -- buffer b (n-th with n), offset characters into it.
  local function syntax_at(b, text, offset, n)
    local line, col = h.find(b, text, n)
    return vim.fn.synIDattr(vim.fn.synID(line + 1, col + 1 + (offset or 0), 1), 'name')
  end

  test('blueprint language syntax file', 'grammar', function()
    local b = open(dir .. '/bp/syntax.bp', {
      'version "2025-11-02"',
      '# a comment with ${variables.x}',
      'variable "primary.region": aws/ec2/instanceSize {',
      '    default = "t3.micro" # trailing',
      '    allowedValues = [0.5, -1, 75]',
      '}',
      'value isProd: boolean {',
      '    value = variables.env == "prod" && !values.off',
      '}',
      'data nodes: aws/eks/node {',
      '    filter "name" not starts with "tmp-"',
      '    export region as vpcRegion: string',
      '}',
      'resource fn: aws/lambda/function {',
      '    spec {',
      '        functionName = "fn-${elem.name}-#1"',
      '        config = object(owner = none, on = true)',
      '        other = ordersTable.spec.id',
      '    }',
      '}',
      'export arn: string {',
      '    description = """',
      '        Multi ${variables.name} # not a comment',
      '        """',
      '}',
    })
    check(vim.bo[b].filetype == 'bluelink', 'filetype %q', vim.bo[b].filetype)
    if vim.g.syntax_on == nil then
      vim.cmd('syntax enable')
    end
    check(vim.b[b].current_syntax == 'bluelink', 'current_syntax %q', tostring(vim.b[b].current_syntax))
    local cases = {
      { 'version', 0, 'bluelinkKeyword' },
      { '"2025', 1, 'bluelinkString' },
      { '# a comment', 20, 'bluelinkComment' },
      { 'variable "', 0, 'bluelinkDeclaration' },
      { '"primary.region"', 3, 'bluelinkDeclQuoted' },
      { 'aws/ec2/instanceSize', 5, 'bluelinkType' },
      { 'default', 0, 'bluelinkAttribute' },
      { '# trailing', 2, 'bluelinkComment' },
      { '0.5', 0, 'bluelinkNumber' },
      { ', -1,', 2, 'bluelinkNumber' },
      { 'value isProd', 0, 'bluelinkDeclaration' },
      { 'isProd', 0, 'bluelinkDeclName' },
      { '    value =', 4, 'bluelinkAttribute' },
      { 'variables.env', 0, 'bluelinkNamespace' },
      { '==', 0, 'bluelinkOperator' },
      { '&&', 0, 'bluelinkOperator' },
      { '!values', 0, 'bluelinkOperator' },
      { 'filter', 0, 'bluelinkFilter' },
      { 'not starts', 4, 'bluelinkFilterOp' },
      { ' as ', 1, 'bluelinkAs' },
      { 'vpcRegion', 0, 'bluelinkDeclName' },
      { 'spec {', 0, 'bluelinkKeyword' },
      { '${elem', 0, 'bluelinkInterpDelim' },
      { 'elem.name', 0, 'bluelinkEach' },
      { '-#1', 1, 'bluelinkString' },
      { 'object(', 0, 'bluelinkFunction' },
      { 'owner =', 0, 'bluelinkAttribute' },
      { 'none', 0, 'bluelinkNone' },
      { 'true', 0, 'bluelinkBoolean' },
      { '"""', 0, 'bluelinkTripleString' },
      { 'variables.name', 0, 'bluelinkNamespace' },
      { '# not a comment', 2, 'bluelinkTripleString' },
    }
    for _, c in ipairs(cases) do
      local got = syntax_at(b, c[1], c[2])
      check(got == c[3], 'syntax at %q+%d is %q, want %q', c[1], c[2], got, c[3])
    end
    -- A YAML blueprint keeps the YAML syntax.
    local y = open(dir .. '/bp/other.blueprint.yaml', { 'version: 2023-04-20', 'values: {}' })
    check(vim.b[y].current_syntax == 'yaml', 'yaml.bluelink has syntax %q', tostring(vim.b[y].current_syntax))
    vim.cmd('bwipeout!')
    vim.cmd('bwipeout! ' .. b)
  end)

  test('server attaches to a .bp buffer', 'serve', function()
    local b = open(fixture)
    check(vim.bo[b].filetype == 'bluelink', 'filetype %q', vim.bo[b].filetype)
    check(vim.bo[b].shiftwidth == 4 and vim.bo[b].commentstring == '# %s', 'ftplugin: shiftwidth %d, commentstring %q', vim.bo[b].shiftwidth, vim.bo[b].commentstring)
    wait_for('a bluelink_blueprint_ls client on the .bp buffer', function()
      return #bls.clients(b) > 0
    end)
  end)

  -- The features the YAML fixture is tested with, on its .bp twin.
  local function bp_buffer()
    -- :buffer, not :edit: re-reading the file would detach the client
    -- for a moment on Neovim 0.7.
    vim.cmd('buffer ' .. vim.fn.bufnr(fixture))
    local b = vim.api.nvim_get_current_buf()
    h.needs_server(b)
    return b
  end

  test('.bp: diagnostics on the right line', 'diagnostics', function()
    h.check_mistake(bp_buffer())
  end)

  test('.bp: hover on a variable reference', 'hover', function()
    local b = bp_buffer()
    local line, col = h.find(b, '${variables.environment}')
    local r = h.request(b, 'textDocument/hover', h.position(b, line, col + #'${variables.' + 2))
    check(r and r.contents, 'no hover')
    local text = h.markup_text(r.contents)
    check(text:find('environment', 1, true), 'hover does not name the variable: %q', text)
    check(text:find('string', 1, true) or text:find('The environment to deploy to', 1, true), 'hover shows neither type nor description: %q', text)
  end)

  test('.bp: completion after variables. and values.', 'completion', function()
    local b = bp_buffer()
    -- Inside "${..}" and in a bare expression.
    local cases = {
      { '${variables.environment}', #'${variables.', { 'environment', 'region' } },
      { 'field = values.prefix', #'field = values.', { 'prefix', 'tableName' } },
    }
    local function expect(text, offset, want)
      local l, col = h.find(b, text)
      local r = h.request(b, 'textDocument/completion', h.position(b, l, col + offset))
      local items = r and (r.items or r) or {}
      local labels = {}
      for _, it in ipairs(items) do
        labels[it.label] = true
      end
      for _, w in ipairs(want) do
        check(labels[w], 'completion in %q: labels %s lack %s', text, vim.inspect(vim.tbl_keys(labels)), w)
      end
    end
    for _, c in ipairs(cases) do
      expect(c[1], c[2], c[3])
    end
    -- While typing: a new value whose expression so far is `variables.`.
    local line = h.find(b, 'value tableName: string {')
    vim.api.nvim_buf_set_lines(b, line, line, false, { 'value draft: string {', '    value = variables.', '}', '' })
    local ok, err = pcall(expect, 'value = variables.', #'value = variables.', { 'environment', 'region' })
    vim.api.nvim_buf_set_lines(b, line, line + 4, false, {})
    if not ok then
      error(err, 0)
    end
  end)

  test('.bp: :BlueprintPlan through the server command', 'plan-command', function()
    bp_buffer()
    vim.cmd('BlueprintPlan server')
    wait_for('the .bp plan buffer', function()
      return h.plan_text(fixture):find('ordersTable', 1, true) ~= nil
    end)
  end)
end
