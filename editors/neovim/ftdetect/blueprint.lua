require('blueprint_ls.filetype').register()
