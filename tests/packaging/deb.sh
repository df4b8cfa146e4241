#!/usr/bin/env bash
# `cpack -G DEB` builds mcp-read_<version>_<arch>.deb whose Depends is exactly this build's
# runtime list and which holds the installed files; unpacked, it reads PDFs with its own plugin.
# Usage: deb.sh BUILD_DIR
here=$(dirname "${BASH_SOURCE[0]}")
source "$here/common.sh"
source "$here/read_pdf.sh"

deb="$work/deb/mcp-read_$(layout version)_$(dpkg --print-architecture).deb"
if ! (cd "$work" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work/deb") \
  >"$work/cpack.log" 2>&1 || [[ ! -f $deb ]]; then
  fail "cpack -G DEB did not build $(basename "$deb"): $(tail -n 5 "$work/cpack.log")"
  finish
fi

depends=$(dpkg-deb -f "$deb" Depends | tr ',' '\n' | package_list)
if [[ $depends == "$runtime" ]]; then
  ok "$(basename "$deb") depends on $(words "$depends")"
else
  fail "the .deb depends on '$(words "$depends")', not '$(words "$runtime")'"
fi

recommends=$(dpkg-deb -f "$deb" Recommends | tr ',' '\n' | package_list)
want=$(package_list "$source_dir/packaging/recommended-packages.txt")
if [[ -n $want && $recommends == "$want" ]]; then
  ok "$(basename "$deb") recommends $(words "$recommends")"
else
  fail "the .deb recommends '$(words "$recommends")', not '$(words "$want")'"
fi

prefix=$(layout package_prefix)
contents=$(dpkg-deb -c "$deb" | awk '{print $NF}')
holds=1
for file in "${installed_files[@]}"; do
  grep -qx "\.$prefix/$file" <<<"$contents" || { fail "the .deb lacks $prefix/$file"; holds=0; }
done
((holds)) && ok "the .deb holds ${installed_files[*]} under $prefix"

dpkg-deb -x "$deb" "$work/root"
# Debian's copyright file: mcp-read under Apache-2.0, the plugin (linked with poppler) under the GPL.
copyright="$work/root$prefix/$(layout docdir)/copyright"
if grep -q '^Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/$' "$copyright" &&
  grep -q '^License: Apache-2.0$' "$copyright" &&
  grep -q '^Files: usr/lib/mcp-read/libmcpread_pdf.so$' "$copyright" &&
  cmp -s "$work/root$prefix/$(layout docdir)/LICENSE" /usr/share/common-licenses/Apache-2.0; then
  ok "the .deb's copyright file gives Apache-2.0 and the PDF plugin's GPL, beside the licence text"
else
  fail "the .deb's copyright file or LICENSE is missing or says otherwise ($copyright)"
fi
read_pdf_with "$work/root$prefix/$bindir/mcp-read" \
  "$work/root$prefix/$libdir/mcp-read/libmcpread_pdf.so" ".deb unpacked"
finish
