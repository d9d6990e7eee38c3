" Text plans from `blueprint-ls plan`.
if exists('b:current_syntax')
  finish
endif
syntax match blueprintPlanCreate /^\s*+.*/
syntax match blueprintPlanDelete /^\s*-.*/
syntax match blueprintPlanChange /^\s*[~!].*/
syntax match blueprintPlanComment /^#.*/
highlight default link blueprintPlanCreate DiffAdd
highlight default link blueprintPlanDelete DiffDelete
highlight default link blueprintPlanChange DiffChange
highlight default link blueprintPlanComment Comment
let b:current_syntax = 'blueprintplan'
