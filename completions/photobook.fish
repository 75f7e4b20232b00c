# fish completion for photobook, written by `photobook completions fish` from its option table.
complete -c photobook -f
complete -c photobook -n __fish_use_subcommand -s h -l help -d 'show the commands and exit'
complete -c photobook -n __fish_use_subcommand -s V -l version -d 'show the version and exit'
complete -c photobook -n __fish_use_subcommand -a build -d 'make a print-ready PDF photo book from folders and files of photos'
complete -c photobook -n __fish_use_subcommand -a completions -d 'print the shell completion script for bash, zsh or fish'

complete -c photobook -n '__fish_seen_subcommand_from build' -s o -l output -r -F -d 'the PDF to write'
complete -c photobook -n '__fish_seen_subcommand_from build' -s r -l recursive -d 'include photos in subfolders, following symbolic links but never round a loop'
complete -c photobook -n '__fish_seen_subcommand_from build' -l max-pixels -x -d 'refuse images whose header declares more pixels'
complete -c photobook -n '__fish_seen_subcommand_from build' -l page-size -x -a 'a3 a4 a5 letter legal' -d 'the size of every page, portrait as given'
complete -c photobook -n '__fish_seen_subcommand_from build' -l margin -x -d 'blank border on every side of the page'
complete -c photobook -n '__fish_seen_subcommand_from build' -l layout -x -a 'single auto grid:2x2 grid:3x4' -d 'how photos share the pages'
complete -c photobook -n '__fish_seen_subcommand_from build' -l gap -x -d 'space between two photos on a page'
complete -c photobook -n '__fish_seen_subcommand_from build' -l max-per-page -x -d 'the most photos the auto layout puts on a page'
complete -c photobook -n '__fish_seen_subcommand_from build' -l fit -x -a 'fill fit' -d 'how a photo meets its cell on the page'
complete -c photobook -n '__fish_seen_subcommand_from build' -l dpi -x -d 'target density of the printed photos in pixels per inch'
complete -c photobook -n '__fish_seen_subcommand_from build' -l quality -x -d 'JPEG quality of the photos embedded in the book'
complete -c photobook -n '__fish_seen_subcommand_from build' -l keep-originals -d 'never resample: JPEG photos are embedded byte for byte, their orientation and crop applied by the page'
complete -c photobook -n '__fish_seen_subcommand_from build' -s j -l jobs -x -d 'photos worked on at once'
complete -c photobook -n '__fish_seen_subcommand_from build' -l strict -d 'if any photo cannot be used, write nothing and fail'
complete -c photobook -n '__fish_seen_subcommand_from build' -s q -l quiet -d 'print errors only'
complete -c photobook -n '__fish_seen_subcommand_from build' -s v -l verbose -d 'also report skipped files and each photo\'s density'
complete -c photobook -n '__fish_seen_subcommand_from build' -s h -l help -d 'show this help and exit'
complete -c photobook -n '__fish_seen_subcommand_from build' -F

complete -c photobook -n '__fish_seen_subcommand_from completions' -s h -l help -d 'show this help and exit'
complete -c photobook -n '__fish_seen_subcommand_from completions' -x -a 'bash zsh fish'
