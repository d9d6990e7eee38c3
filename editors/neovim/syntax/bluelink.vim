" The Bluelink blueprint language (*.bp, *.blueprint; filetype bluelink).
" Only for that filetype: yaml.bluelink and friends keep the yaml/json
" syntax (this file is sourced for the second part of those compound
" filetypes too). The language server's semantic tokens refine it.
if exists('b:current_syntax') || &filetype !=# 'bluelink'
  finish
endif

syntax case match
syntax sync minlines=200

" Declarations: keyword, name (plain or quoted), optional `as alias`, `: type`.
syntax match bluelinkDeclaration /^\s*\zs\%(variable\|value\|data\|resource\|include\|export\)\ze\s\+[A-Za-z_"*]/ nextgroup=bluelinkDeclName,bluelinkDeclQuoted,bluelinkWildcard skipwhite
syntax match bluelinkDeclName /[A-Za-z_][A-Za-z0-9_-]*/ contained nextgroup=bluelinkAs,bluelinkTypeSep skipwhite
syntax region bluelinkDeclQuoted start=/"/ skip=/\\"/ end=/"/ oneline contained nextgroup=bluelinkAs,bluelinkTypeSep skipwhite
syntax match bluelinkAs /\<as\>/ contained nextgroup=bluelinkDeclName skipwhite
syntax match bluelinkWildcard /\*/ contained
syntax match bluelinkTypeSep /:/ contained nextgroup=bluelinkPrimitive,bluelinkType skipwhite
syntax match bluelinkType /[A-Za-z_][A-Za-z0-9_-]*\%(\/[A-Za-z_][A-Za-z0-9_-]*\)*/ contained
syntax match bluelinkPrimitive /\<\%(string\|integer\|float\|boolean\|array\|object\)\>\ze\s*\%([{#]\|$\)/ contained

" Statements inside and outside blocks.
syntax match bluelinkKeyword /^\s*\zs\%(version\|transform\|foreach\)\>\ze\s*[^=[:space:]]/
syntax match bluelinkKeyword /\<\%(spec\|metadata\|variables\)\ze\s*{/
syntax match bluelinkKeyword /\<select\s\+by\s\+label\>/
syntax match bluelinkFilter /^\s*\zsfilter\>\ze\s*[^=[:space:]]/ nextgroup=bluelinkFilterField skipwhite
syntax region bluelinkFilterField start=/"/ skip=/\\"/ end=/"/ oneline contained nextgroup=bluelinkFilterOp skipwhite
syntax match bluelinkFilterOp /\%(not\s\+\)\=\%(in\|has\s\+key\|contains\|starts\s\+with\|ends\s\+with\)\>\|==\|!=\|<=\|>=\|[<>]/ contained

" Expressions.
syntax match bluelinkFunction /[A-Za-z_][A-Za-z0-9_-]*\ze\s*(/
syntax match bluelinkNamespace /\<\%(variables\|values\|resources\|datasources\|children\)\ze\s*[.[]/
syntax match bluelinkEach /\<\%(elem\|i\)\>\ze\%([^(A-Za-z0-9_-]\|$\)/
syntax keyword bluelinkBoolean true false
syntax keyword bluelinkNone none
syntax match bluelinkNumber /\%([A-Za-z0-9_.-]\)\@<!-\=\d\+\%(\.\d\+\)\=\>/
syntax match bluelinkOperator /&&\|||\|==\|!=\|<=\|>=\|[<>]\|!\ze[^=]/
" Attributes and object keys (name = ...), named arguments alike.
syntax match bluelinkAttribute /[A-Za-z_][A-Za-z0-9_-]*\ze\s*=[^=]/

syntax cluster bluelinkExpr contains=bluelinkFunction,bluelinkNamespace,bluelinkEach,bluelinkBoolean,bluelinkNone,bluelinkNumber,bluelinkOperator,bluelinkString,bluelinkTripleString,bluelinkInterpBraces

" Strings: "..." (only \" escapes) and """...""", both with ${..}.
syntax region bluelinkString start=/"/ skip=/\\"/ end=/"\|$/ contains=bluelinkEscape,bluelinkInterp
syntax region bluelinkTripleString start=/"""/ end=/"""/ contains=bluelinkInterp
syntax match bluelinkEscape /\\"/ contained
syntax region bluelinkInterp matchgroup=bluelinkInterpDelim start=/\${/ end=/}/ contained contains=@bluelinkExpr
syntax region bluelinkInterpBraces start=/{/ end=/}/ contained transparent contains=@bluelinkExpr,bluelinkAttribute

syntax match bluelinkComment /#.*$/ contains=@Spell

highlight default link bluelinkDeclaration Keyword
highlight default link bluelinkKeyword Keyword
highlight default link bluelinkFilter Keyword
highlight default link bluelinkAs Keyword
highlight default link bluelinkFilterOp Operator
highlight default link bluelinkFilterField String
highlight default link bluelinkDeclName Identifier
highlight default link bluelinkDeclQuoted Identifier
highlight default link bluelinkWildcard Special
highlight default link bluelinkTypeSep Delimiter
highlight default link bluelinkType Type
highlight default link bluelinkPrimitive Type
highlight default link bluelinkAttribute Identifier
highlight default link bluelinkFunction Function
highlight default link bluelinkNamespace Special
highlight default link bluelinkEach Special
highlight default link bluelinkBoolean Boolean
highlight default link bluelinkNone Constant
highlight default link bluelinkNumber Number
highlight default link bluelinkOperator Operator
highlight default link bluelinkString String
highlight default link bluelinkTripleString String
highlight default link bluelinkEscape SpecialChar
highlight default link bluelinkInterpDelim Delimiter
highlight default link bluelinkComment Comment

let b:current_syntax = 'bluelink'
