# bash completion for photobook, written by `photobook completions bash` from its option table.

_photobook_files() {
    # $@: the extensions to offer, in lower or upper case (IMG_1.JPG), with the folders that may hold
    # such files; none for any file.
    local IFS=$'\n' ext
    compopt -o filenames 2>/dev/null
    if (( $# )); then
        COMPREPLY=($(compgen -d -- "$cur"))
        for ext in "$@"; do
            COMPREPLY+=($(compgen -f -X "!*.$ext" -- "$cur") $(compgen -f -X "!*.${ext^^}" -- "$cur"))
        done
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}

_photobook() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    # bash splits "--name=value" at the '=' (it is in COMP_WORDBREAKS).
    if [[ $cur == = ]]; then
        cur=""
    elif [[ $prev == = && $COMP_CWORD -ge 2 ]]; then
        prev=${COMP_WORDS[COMP_CWORD-2]}
    fi
    local i command=""
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
            -*) ;;
            *) command=${COMP_WORDS[i]}; break ;;
        esac
    done
    case $command in
        "")
            COMPREPLY=($(compgen -W "build init edit cover presets completions --help --version" -- "$cur"))
            ;;
        build)
            case $prev in
                -o|--output) _photobook_files pdf; return ;;
                --report) _photobook_files json; return ;;
                --prefer) COMPREPLY=($(compgen -W "jpeg raw" -- "$cur")); return ;;
                --sort) COMPREPLY=($(compgen -W "name date given" -- "$cur")); return ;;
                --photos) COMPREPLY=(); return ;;
                --pages) COMPREPLY=(); return ;;
                --max-pixels) COMPREPLY=(); return ;;
                --preset) COMPREPLY=($(compgen -W "lulu-a4 lulu-us-letter lulu-square lulu-us-letter-landscape lulu-small-landscape blurb-photo-book blurb-photo-book-heavy-paper blurb-layflat ingramspark kdp-paperback-square kdp-paperback-letter mixam-hardcover-a4 prodigi-hardcover-9x9 prodigi-hardcover-12x12 jukebox-booklet-letter" -- "$cur")); return ;;
                --page-size) COMPREPLY=($(compgen -W "a3 a4 a5 letter legal" -- "$cur")); return ;;
                --margin) COMPREPLY=(); return ;;
                --bleed) COMPREPLY=(); return ;;
                --safety) COMPREPLY=(); return ;;
                --binding) COMPREPLY=(); return ;;
                --pad-to) COMPREPLY=(); return ;;
                --layout) COMPREPLY=($(compgen -W "single auto grid:2x2 grid:3x4" -- "$cur")); return ;;
                --gap) COMPREPLY=(); return ;;
                --max-per-page) COMPREPLY=(); return ;;
                --fit) COMPREPLY=($(compgen -W "fill fit" -- "$cur")); return ;;
                --crop) COMPREPLY=($(compgen -W "auto centre center" -- "$cur")); return ;;
                --dpi) COMPREPLY=(); return ;;
                --min-dpi) COMPREPLY=(); return ;;
                --quality) COMPREPLY=(); return ;;
                --pdfx) COMPREPLY=($(compgen -W "4 1a" -- "$cur")); return ;;
                --output-profile) _photobook_files icc icm; return ;;
                --output-condition) COMPREPLY=(); return ;;
                --intent) COMPREPLY=($(compgen -W "relative perceptual" -- "$cur")); return ;;
                --title) COMPREPLY=(); return ;;
                --subtitle) COMPREPLY=(); return ;;
                --author) COMPREPLY=(); return ;;
                --cover-photo) _photobook_files 3fr arw avif bmp cr2 cr3 dcr dib dng erf gif heic heif hif iiq j2c j2k jfif jp2 jpc jpe jpeg jpf jpg jpx jxl kdc mos mrw nef nrw orf pef png raf rw2 rwl sr2 srf srw tif tiff webp; return ;;
                --captions) COMPREPLY=($(compgen -W "auto name date none" -- "$cur")); return ;;
                --sections) COMPREPLY=($(compgen -W "folder day event none" -- "$cur")); return ;;
                --font) _photobook_files ttf otf ttc otc; return ;;
                --lang) COMPREPLY=(); return ;;
                -j|--jobs) COMPREPLY=(); return ;;
                --cache-limit) COMPREPLY=(); return ;;
            esac
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--output -o --report --recursive -r --keep-duplicates --prefer --sort --reverse --photos --pages --max-pixels --preset --page-size --margin --bleed --crop-marks --safety --binding --pad-to --spreads --layout --gap --max-per-page --fit --crop --dpi --min-dpi --quality --pdfx --output-profile --output-condition --intent --keep-originals --title --subtitle --author --cover-photo --captions --sections --page-numbers --font --lang --jobs -j --strict --dry-run -n --proof --no-cache --cache-limit --quiet -q --verbose -v --help -h" -- "$cur"))
            else
                _photobook_files
            fi
            ;;
        init)
            case $prev in
                -o|--output) _photobook_files json; return ;;
                --prefer) COMPREPLY=($(compgen -W "jpeg raw" -- "$cur")); return ;;
                --sort) COMPREPLY=($(compgen -W "name date given" -- "$cur")); return ;;
                --photos) COMPREPLY=(); return ;;
                --pages) COMPREPLY=(); return ;;
                --max-pixels) COMPREPLY=(); return ;;
                --preset) COMPREPLY=($(compgen -W "lulu-a4 lulu-us-letter lulu-square lulu-us-letter-landscape lulu-small-landscape blurb-photo-book blurb-photo-book-heavy-paper blurb-layflat ingramspark kdp-paperback-square kdp-paperback-letter mixam-hardcover-a4 prodigi-hardcover-9x9 prodigi-hardcover-12x12 jukebox-booklet-letter" -- "$cur")); return ;;
                --page-size) COMPREPLY=($(compgen -W "a3 a4 a5 letter legal" -- "$cur")); return ;;
                --margin) COMPREPLY=(); return ;;
                --bleed) COMPREPLY=(); return ;;
                --safety) COMPREPLY=(); return ;;
                --binding) COMPREPLY=(); return ;;
                --pad-to) COMPREPLY=(); return ;;
                --layout) COMPREPLY=($(compgen -W "single auto grid:2x2 grid:3x4" -- "$cur")); return ;;
                --gap) COMPREPLY=(); return ;;
                --max-per-page) COMPREPLY=(); return ;;
                --fit) COMPREPLY=($(compgen -W "fill fit" -- "$cur")); return ;;
                --crop) COMPREPLY=($(compgen -W "auto centre center" -- "$cur")); return ;;
                --dpi) COMPREPLY=(); return ;;
                --min-dpi) COMPREPLY=(); return ;;
                --quality) COMPREPLY=(); return ;;
                --pdfx) COMPREPLY=($(compgen -W "4 1a" -- "$cur")); return ;;
                --output-profile) _photobook_files icc icm; return ;;
                --output-condition) COMPREPLY=(); return ;;
                --intent) COMPREPLY=($(compgen -W "relative perceptual" -- "$cur")); return ;;
                --title) COMPREPLY=(); return ;;
                --subtitle) COMPREPLY=(); return ;;
                --author) COMPREPLY=(); return ;;
                --cover-photo) _photobook_files 3fr arw avif bmp cr2 cr3 dcr dib dng erf gif heic heif hif iiq j2c j2k jfif jp2 jpc jpe jpeg jpf jpg jpx jxl kdc mos mrw nef nrw orf pef png raf rw2 rwl sr2 srf srw tif tiff webp; return ;;
                --captions) COMPREPLY=($(compgen -W "auto name date none" -- "$cur")); return ;;
                --sections) COMPREPLY=($(compgen -W "folder day event none" -- "$cur")); return ;;
                --font) _photobook_files ttf otf ttc otc; return ;;
                --lang) COMPREPLY=(); return ;;
                -j|--jobs) COMPREPLY=(); return ;;
                --cache-limit) COMPREPLY=(); return ;;
            esac
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--output -o --recursive -r --keep-duplicates --prefer --sort --reverse --photos --pages --max-pixels --preset --page-size --margin --bleed --crop-marks --safety --binding --pad-to --layout --gap --max-per-page --fit --crop --dpi --min-dpi --quality --pdfx --output-profile --output-condition --intent --keep-originals --title --subtitle --author --cover-photo --captions --sections --page-numbers --font --lang --jobs -j --strict --proof --no-cache --cache-limit --quiet -q --verbose -v --help -h" -- "$cur"))
            else
                _photobook_files
            fi
            ;;
        edit)
            case $prev in
                --port) COMPREPLY=(); return ;;
            esac
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--port --no-open --help -h" -- "$cur"))
            else
                _photobook_files
            fi
            ;;
        cover)
            case $prev in
                -o|--output) _photobook_files pdf; return ;;
                --preset) COMPREPLY=($(compgen -W "lulu-a4 lulu-us-letter lulu-square lulu-us-letter-landscape lulu-small-landscape blurb-photo-book blurb-photo-book-heavy-paper blurb-layflat ingramspark kdp-paperback-square kdp-paperback-letter mixam-hardcover-a4 prodigi-hardcover-9x9 prodigi-hardcover-12x12 jukebox-booklet-letter" -- "$cur")); return ;;
                --page-size) COMPREPLY=($(compgen -W "a3 a4 a5 letter legal" -- "$cur")); return ;;
                --spine) COMPREPLY=(); return ;;
                --interior-pages) COMPREPLY=(); return ;;
                --paper-ppi) COMPREPLY=(); return ;;
                --bleed) COMPREPLY=(); return ;;
                --wrap) COMPREPLY=(); return ;;
                --hinge) COMPREPLY=(); return ;;
                --safety) COMPREPLY=(); return ;;
                --crop) COMPREPLY=($(compgen -W "auto centre center" -- "$cur")); return ;;
                --dpi) COMPREPLY=(); return ;;
                --quality) COMPREPLY=(); return ;;
                --pdfx) COMPREPLY=($(compgen -W "4 1a" -- "$cur")); return ;;
                --output-profile) _photobook_files icc icm; return ;;
                --output-condition) COMPREPLY=(); return ;;
                --intent) COMPREPLY=($(compgen -W "relative perceptual" -- "$cur")); return ;;
                --title) COMPREPLY=(); return ;;
                --subtitle) COMPREPLY=(); return ;;
                --author) COMPREPLY=(); return ;;
                --font) _photobook_files ttf otf ttc otc; return ;;
                --lang) COMPREPLY=(); return ;;
                --spine-text) COMPREPLY=($(compgen -W "auto vertical rotated" -- "$cur")); return ;;
            esac
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--output -o --preset --page-size --spine --interior-pages --paper-ppi --bleed --hardcover --wrap --hinge --safety --crop --dpi --quality --pdfx --output-profile --output-condition --intent --title --subtitle --author --font --lang --spine-text --quiet -q --verbose -v --help -h" -- "$cur"))
            else
                _photobook_files
            fi
            ;;
        presets)
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--help -h" -- "$cur"))
            else
                COMPREPLY=($(compgen -W "lulu-a4 lulu-us-letter lulu-square lulu-us-letter-landscape lulu-small-landscape blurb-photo-book blurb-photo-book-heavy-paper blurb-layflat ingramspark kdp-paperback-square kdp-paperback-letter mixam-hardcover-a4 prodigi-hardcover-9x9 prodigi-hardcover-12x12 jukebox-booklet-letter" -- "$cur"))
            fi
            ;;
        completions)
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--help -h" -- "$cur"))
            else
                COMPREPLY=($(compgen -W "bash zsh fish" -- "$cur"))
            fi
            ;;
    esac
}
complete -F _photobook photobook
