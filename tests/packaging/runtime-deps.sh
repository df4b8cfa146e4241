#!/usr/bin/env bash
# The runtime package list (packaging/runtime-packages.txt, plus runtime-packages-shared-libs.txt
# when the third-party libraries are linked shared) against what the built files load: it must
# name exactly the packages whose libraries mcp-read and its plugins (PDF, word processors) link, open with dlopen or
# read by path, and every library they end up loading must come with those packages.
# Usage: runtime-deps.sh BUILD_DIR
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

# Where the dynamic loader finds each library of a built file: "soname path" lines.
resolved_libraries() {
  ldd "$1" | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}
    $1 ~ /^\// {n = split($1, a, "/"); print a[n], $1}'
}

# The owners of files, looked up in one dpkg-query call (each call reads every file list). With
# merged /usr, dpkg may know a library under /lib or /usr/lib, and a soname is often a symlink to
# the file the package ships: each path is asked for in all these spellings.
spellings() {
  local p
  for p in "$1" "$(readlink -f "$1")"; do printf '%s\n' "$p" "${p#/usr}" "/usr$p"; done
}
declare -A owner_of=()  # path as given to lookup_owners -> package
lookup_owners() {
  local line package path q
  local -A found=()
  while IFS= read -r line; do
    [[ $line == *': /'* && $line != diversion* ]] || continue
    package=${line%%: /*}  # "libc6:amd64: /lib/..." or "a, b: /usr/share/..."
    package=${package%%,*}
    found[${line#*: }]=${package%%:*}
  done < <(for path in "$@"; do spellings "$path"; done | sort -u |
    xargs -r dpkg-query -S 2>/dev/null || true)
  for path in "$@"; do
    for q in $(spellings "$path"); do
      [[ -n ${found[$q]:-} ]] && { owner_of[$path]=${found[$q]}; break; }
    done
  done
}
owner() { [[ -n ${owner_of[$1]:-} ]] && echo "${owner_of[$1]}"; }

# Libraries the readers open with dlopen by name (LazyLibrary's candidates), and the server's
# OAuth libraries (server/src/auth/oauth_api.cpp): no link step records them. Every versioned
# soname written in the readers' and the server's sources counts.
libc_dir=$(dirname "$(resolved_libraries "$binary" | awk '$1 == "libc.so.6" {print $2}')")
declare -A dlopened=()  # soname -> path
# ICU's and tesseract's sonames are composed at build time from the versions built against
# (readers/CMakeLists.txt: MCPREAD_ICU_MAJOR; src/ocr/tess_api.cpp: TESSERACT_MAJOR_VERSION).
icu_major=$(sed -n 's/^MCPREAD_ICU_MAJOR:STRING=//p' "$build/CMakeCache.txt")
tess_major=$(sed -n 's/^#define TESSERACT_MAJOR_VERSION *\([0-9]*\).*/\1/p' \
  /usr/include/tesseract/version.h /usr/include/tesseract/tess_version.h 2>/dev/null || true)  # one exists
tess_major=${tess_major%%$'\n'*}
for soname in $( { grep -rhoE --include='*.cpp' --include='*.hpp' '"lib[A-Za-z0-9_.+-]*\.so\.[0-9]+"' \
  "$source_dir"/readers/src "$source_dir"/server/src | tr -d '"'; echo "libicuuc.so.$icu_major libtesseract.so.$tess_major"; } |
  tr ' ' '\n' | sort -u); do
  path="$libc_dir/$soname"
  # awk reads to the end: leaving early would end ldconfig with SIGPIPE, which pipefail reports.
  [[ -e $path ]] || path=$(ldconfig -p | awk -v s="$soname" '$1 == s && !found {print $NF; found = 1}')
  dlopened[$soname]=$path
done
magic_database=/usr/share/misc/magic.mgc
# Poppler reads its CJK CMaps and CID-to-Unicode tables by path: without them CJK text is lost.
poppler_cmaps=/usr/share/poppler/cidToUnicode/Adobe-GB1
loaded_paths=$(for file in "$binary" "$plugin" "$revenge_plugin"; do
  [[ -f $file ]] && resolved_libraries "$file"
done | cut -d' ' -f2)
lookup_owners "${dlopened[@]}" "$magic_database" "$poppler_cmaps" $loaded_paths

# What is needed, and why.
declare -A needed_by=()  # package -> reasons
need() { needed_by[$1]="${needed_by[$1]:-}$2; "; }
for file in "$binary" "$plugin" "$revenge_plugin"; do
  [[ -f $file ]] || { fail "$file is not built"; continue; }
  libraries=$(resolved_libraries "$file")
  for soname in $(readelf -d "$file" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
    path=$(awk -v s="$soname" '$1 == s {print $2; exit}' <<<"$libraries")
    if [[ -n $path ]] && package=$(owner "$path"); then
      need "$package" "$(basename "$file") links $soname"
    else
      fail "$(basename "$file") links $soname, which no installed package provides"
    fi
  done
done
for soname in "${!dlopened[@]}"; do
  if [[ -n ${dlopened[$soname]} ]] && package=$(owner "${dlopened[$soname]}"); then
    need "$package" "dlopen $soname"
  else
    fail "the readers dlopen $soname, which no installed package provides"
  fi
done
# libmagic, linked into mcp-read statically or not, reads its database by path.
if grep -aq /usr/share/misc/magic "$binary" || readelf -d "$binary" | grep -q 'libmagic\.so'; then
  if package=$(owner "$magic_database"); then
    need "$package" "libmagic reads $magic_database"
  else
    fail "mcp-read uses libmagic, but no installed package provides $magic_database"
  fi
fi
if [[ -f $plugin ]] && readelf -d "$plugin" | grep -q 'libpoppler'; then
  if package=$(owner "$poppler_cmaps"); then
    need "$package" "poppler reads its CMaps under /usr/share/poppler"
  else
    fail "the PDF plugin uses poppler, but no installed package provides $poppler_cmaps"
  fi
fi

needed=$(printf '%s\n' "${!needed_by[@]}" | sort -u)
missing=$(comm -23 <(echo "$needed") <(echo "$runtime"))
extra=$(comm -13 <(echo "$needed") <(echo "$runtime"))
for package in $missing; do
  fail "$package is needed (${needed_by[$package]%; }) but not in the runtime list"
done
for package in $extra; do fail "$package is in the runtime list but nothing built needs it"; done
[[ -z $missing && -z $extra ]] &&
  ok "the runtime list is what the built files need: $(words "$runtime")"

# Every library loaded, directly or not, must come with the list: its packages and, recursively,
# their Depends and Pre-Depends (alternatives all count).
declare -A closure=()
while read -r package; do closure[$package]=1; done < <(
  dpkg-query -W -f='${Package}\t${Depends}, ${Pre-Depends}\n' |
  awk -F'\t' -v roots="$(words "$runtime")" '
    { n = split($2, deps, /[,|]/)
      for (i = 1; i <= n; i++) {
        d = deps[i]; sub(/\(.*\)/, "", d); sub(/:any/, "", d); gsub(/[ \t]/, "", d)
        if (d != "") edges[$1] = edges[$1] " " d
      } }
    END { n = split(roots, queue, " ")
      for (i = 1; i <= n; i++) {
        p = queue[i]; if (p in seen) continue
        seen[p] = 1; print p
        m = split(edges[p], more, " "); for (j = 1; j <= m; j++) queue[++n] = more[j]
      } }')
covered=1
for file in "$binary" "$plugin" "$revenge_plugin"; do
  [[ -f $file ]] || continue
  while read -r soname path; do
    if ! package=$(owner "$path"); then
      fail "$(basename "$file") loads $path, which no installed package provides"
      covered=0
    elif [[ -z ${closure[$package]:-} ]]; then
      fail "$(basename "$file") loads $soname from $package, which the runtime list does not bring"
      covered=0
    fi
  done < <(resolved_libraries "$file")
done
((covered)) && ok "every library loaded comes with the runtime list"
finish
