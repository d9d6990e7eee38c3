" Blueprints in YAML are highlighted as YAML; the language server's semantic
" tokens add the ${..} substitutions.
if exists('b:current_syntax')
  finish
endif
runtime! syntax/yaml.vim
unlet! b:current_syntax
let b:current_syntax = 'blueprint'
