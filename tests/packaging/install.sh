#!/usr/bin/env bash
# `cmake --install` lays out the binary, the PDF plugin, the man page and the README; the tree,
# moved elsewhere, still reads PDFs with its own plugin; the man page is clean troff and
# documents every option and variable `mcp-read --help` prints.
# Usage: install.sh BUILD_DIR
here=$(dirname "${BASH_SOURCE[0]}")
source "$here/common.sh"
source "$here/read_pdf.sh"

if cmake --install "$build" --prefix "$work/prefix" >"$work/install.log" 2>&1; then
  mv "$work/prefix" "$work/moved"  # nothing may depend on where it was installed
  placed=1
  for file in "${installed_files[@]}"; do
    [[ -f $work/moved/$file ]] || { fail "cmake --install did not put $file in place"; placed=0; }
  done
  ((placed)) && ok "cmake --install puts ${installed_files[*]} in place"
  read_pdf_with "$work/moved/$bindir/mcp-read" "$work/moved/$libdir/mcp-read/libmcpread_pdf.so" \
    "install tree, moved"
else
  fail "cmake --install failed: $(tail -n 5 "$work/install.log")"
fi

man_page="$source_dir/docs/mcp-read.1"
if command -v groff >/dev/null; then
  warnings=$(groff -ww -z -man "$man_page" 2>&1)
  if [[ -z $warnings ]]; then ok "groff reads the man page without warnings"
  else fail "groff warns about the man page: $warnings"; fi
else
  echo "note: no groff, the man page's troff is not checked (scripts/install-deps.sh --test)"
fi
help=$("$binary" --help)
undocumented=""
for option in $(grep -o -- '--[a-z0-9][a-z0-9-]*' <<<"$help" | sort -u); do
  grep -qF -- "${option//-/\\-}" "$man_page" || undocumented+=" $option"  # troff writes \-\-name
done
for variable in $(grep -o 'MCP_READ_[A-Z0-9_]*' <<<"$help" | sort -u); do
  grep -qF -- "$variable" "$man_page" || undocumented+=" $variable"
done
if [[ -z $undocumented ]]; then ok "the man page documents every option and variable of --help"
else fail "the man page does not document:$undocumented"; fi
finish
