#!/usr/bin/env bash
# Turns the Windows bundle prove.sh stages (<build>/bundle: bin\mcp-read.exe, the DLLs it loads
# from its own folder, share\misc\magic.mgc) into the release folder and its zip:
#   dist/mcp-read-<version>-win32-x64/
#     bin/mcp-read.exe, libvips-42.dll, libzip-4.dll, libxml2-2.dll, libmcpread_pdf.dll (the PDF
#       plugin: poppler, qpdf), libtesseract-5.dll (tesseract and leptonica, for OCR),
#       libarchive-13.dll (archives: libarchive with zlib, bzip2, xz and zstd),
#       libfreexl-1.dll (Excel 97-2003 workbooks)
#     share/misc/magic.mgc      libmagic's database (<exe dir>\..\share\misc\magic.mgc)
#     share/tessdata/           OCR's English and its orientation and script model (osd)
#     share/poppler/            poppler-data: CJK CMaps and CID-to-Unicode tables
#     LICENSES/                 README (which part is under which licence), each part's
#                               copyright file, the licence texts they name
#     README.md, LICENSE
#   dist/mcp-read-<version>-win32-x64.zip
# bin/bcryptprimitives.dll, the stand-in prove.sh puts there for Wine 8 (Windows 10 and later
# have the real one), is left out, and the script fails if it is still there afterwards.
#
#   scripts/windows/bundle.sh BUILD_DIR [OUT_DIR]      (OUT_DIR: dist)
#
# BUILD_DIR: the folder prove.sh built in (build-windows); its windows-deps/vips/ gives sharp's
# libvips licence notes, and deps.sh's source cache the Debian copyright files of the parts
# cross-built from Debian sources. Needs x86_64-w64-mingw32-strip and zip.
set -euo pipefail
export LC_ALL=C
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
die() { echo "windows bundle: $*" >&2; exit 1; }
[[ $# -ge 1 && $1 != -h && $1 != --help ]] || { sed -n 2,18p "$0" | sed 's/^# \{0,1\}//'; exit 2; }
build=$(cd "$1" && pwd) || die "no build folder $1"
out=${2:-$repo/dist}
version=$(sed -n 's/^project(mcp-read VERSION \([0-9][0-9.]*\).*/\1/p' "$repo/CMakeLists.txt")
staged=$build/bundle vips=$build/windows-deps/vips
cache=${MCPREAD_WINDOWS_CACHE:-$HOME/.cache/mcp-read-windows}
for f in bin/mcp-read.exe bin/libvips-42.dll bin/libzip-4.dll bin/libxml2-2.dll bin/libmcpread_pdf.dll \
  bin/libtesseract-5.dll bin/libarchive-13.dll bin/libfreexl-1.dll share/misc/magic.mgc share/tessdata/eng.traineddata share/tessdata/osd.traineddata share/poppler/cMap/Adobe-Japan1/UniJIS-UCS2-H; do
  [[ -s $staged/$f ]] || die "$staged/$f is missing (run scripts/windows/prove.sh $1 first)"
done
for f in README.md versions.json package.json; do [[ -s $vips/$f ]] || die "$vips/$f is missing"; done

name=mcp-read-$version-win32-x64
mkdir -p "$out"
out=$(cd "$out" && pwd)
dir=$out/$name
rm -rf "$dir" "$out/$name.zip"
mkdir -p "$dir/bin" "$dir/share/misc" "$dir/share/tessdata" "$dir/LICENSES"
cp "$staged"/bin/mcp-read.exe "$staged"/bin/*.dll "$dir/bin/"
rm -f "$dir/bin/bcryptprimitives.dll"
cp "$staged/share/misc/magic.mgc" "$dir/share/misc/"
cp "$staged/share/tessdata/eng.traineddata" "$staged/share/tessdata/osd.traineddata" "$dir/share/tessdata/"
cp -r "$staged/share/poppler" "$dir/share/"
# Our own builds lose their symbols (14 MB to 8 MB for the .exe); sharp's DLL is stripped already.
# strip stamps PE files with the time: SOURCE_DATE_EPOCH's, so that the same input gives the same zip.
epoch=${SOURCE_DATE_EPOCH:-946684800}  # 2000-01-01
for f in mcp-read.exe libzip-4.dll libxml2-2.dll libmcpread_pdf.dll libtesseract-5.dll libarchive-13.dll libfreexl-1.dll; do
  SOURCE_DATE_EPOCH=$epoch x86_64-w64-mingw32-strip --strip-unneeded "$dir/bin/$f"
done
[[ $(ls "$dir/bin") == $'libarchive-13.dll\nlibfreexl-1.dll\nlibmcpread_pdf.dll\nlibtesseract-5.dll\nlibvips-42.dll\nlibxml2-2.dll\nlibzip-4.dll\nmcp-read.exe' ]] ||
  die "bin/ holds $(ls "$dir/bin" | tr '\n' ' '), not the .exe and its seven DLLs"

# The Debian source packages deps.sh cross-built (name=version), from its pinned list.
mapfile -t sources < <(for script in deps.sh deps-pdf.sh deps-ocr.sh deps-archive.sh deps-xls.sh; do
  sed -n '/^sources=(/,/)/p; s/^source=\(.*\)/\1/p' "$here/$script"; done | tr -d '()' | sed 's/^sources=//' | tr ' ' '\n' | grep '=')
declare -A built=()
for s in "${sources[@]}"; do built[${s%%=*}]=${s#*=}; done
for want in uchardet nettle pugixml libdeflate tre file libzip libxml2 libpng1.6 libjpeg-turbo freetype qpdf \
  poppler leptonlib tesseract libarchive bzip2 xz-utils libzstd freexl; do
  [[ -n ${built[$want]:-} ]] || die "deps.sh no longer pins $want: update this script's LICENSES/README"
  v=${built[$want]#*:}
  copyright=$cache/src/$want-${v%-*}/debian/copyright
  [[ -s $copyright ]] || die "$copyright is missing (deps.sh fetches it with apt-get source)"
  cp "$copyright" "$dir/LICENSES/$want"
done
# Parts from the build machine's Debian packages: their copyright files as installed.
declare -A host=([zlib]=libz-mingw-w64-dev [encoding_rs]=librust-encoding-rs-dev
  [mingw-w64]=mingw-w64-x86-64-dev [gcc-runtime]=gcc-mingw-w64-base [tessdata-eng]=tesseract-ocr-eng [tessdata-osd]=tesseract-ocr-osd [poppler-data]=poppler-data)
for part in "${!host[@]}"; do
  pkg=${host[$part]}
  [[ -s /usr/share/doc/$pkg/copyright ]] || die "/usr/share/doc/$pkg/copyright is missing (install $pkg)"
  cp "/usr/share/doc/$pkg/copyright" "$dir/LICENSES/$part"
  dpkg-query -W -f='${Version}' "$pkg" >"$dir/LICENSES/.$part.version"
done
cp "$vips/README.md" "$dir/LICENSES/sharp-libvips"
cp "$vips/versions.json" "$dir/LICENSES/sharp-libvips-versions.json"
cp "$repo/LICENSE" "$dir/LICENSES/mcp-read"
cp "$repo/LICENSE" "$dir/LICENSE"
for licence in Apache-2.0 GPL-2 GPL-3 LGPL-2.1 LGPL-3 MPL-1.1; do
  cp "/usr/share/common-licenses/$licence" "$dir/LICENSES/$licence"
done
sharp=$(node -p 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).version' "$vips/package.json")
libvips=$(node -p 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).vips' "$vips/versions.json")
hv() { cat "$dir/LICENSES/.$1.version"; rm "$dir/LICENSES/.$1.version"; }
row() { printf '%-30s %-13s %-25s %s\n' "$@"; }
{
  echo "mcp-read's own code is under the Apache License 2.0 (LICENSES/mcp-read): bin/mcp-read.exe,"
  echo "apart from the libraries below that are linked into it, and the source of the PDF plugin,"
  echo "bin/libmcpread_pdf.dll. The plugin is linked with poppler, under the GNU GPL (version 2 or"
  echo "3): as combined with it, the plugin is distributed under the GNU GPL version 3"
  echo "(LICENSES/GPL-3), with which the Apache License 2.0 is compatible; its source is mcp-read's"
  echo "readers/pdf_plugin/, Debian's source packages of the versions below and the build recipe"
  echo "scripts/windows/deps-pdf.sh. bin/mcp-read.exe does not link poppler: it loads the plugin"
  echo "when it first reads a PDF, and without the plugin it refuses PDFs and reads everything else."
  echo
  echo "Each part below keeps its own licence: LICENSES/<part> is its copyright file (Debian's for"
  echo "the parts built from Debian source packages, cross-compiled with mingw-w64), and the licence"
  echo "texts those files name by their Debian path are LICENSES/<licence>."
  echo
  row FILE PART VERSION LICENCE
  row bin/libvips-42.dll sharp-libvips "$libvips (npm @img/sharp-libvips-win32-x64 $sharp)" "LGPL-3.0-or-later for libvips; its bundled libraries (GLib, cairo, libheif, libjpeg, libpng, libtiff, libwebp...) under the licences LICENSES/sharp-libvips lists, versions in LICENSES/sharp-libvips-versions.json"
  row bin/libzip-4.dll libzip "${built[libzip]}" "BSD-3-Clause; zlib (LICENSES/zlib) and the GCC runtime linked in"
  row bin/libxml2-2.dll libxml2 "${built[libxml2]}" "MIT (and ISC); zlib (LICENSES/zlib) and the GCC runtime linked in"
  row "bin/mcp-read.exe (linked in)" file "${built[file]}" "BSD-2-Clause (libmagic)"
  row "bin/mcp-read.exe (linked in)" tre "${built[tre]}" "BSD-2-Clause (the regex library libmagic uses)"
  row "bin/mcp-read.exe (linked in)" uchardet "${built[uchardet]}" "MPL-1.1 or GPL-2+ or LGPL-2.1+"
  row "bin/mcp-read.exe (linked in)" nettle "${built[nettle]}" "LGPL-3+ or GPL-2+ (HMAC-SHA256 and base64 only)"
  row "bin/mcp-read.exe (linked in)" pugixml "${built[pugixml]}" "MIT"
  row "bin/mcp-read.exe (linked in)" libdeflate "${built[libdeflate]}" "MIT"
  row "bin/mcp-read.exe (linked in)" encoding_rs "$(hv encoding_rs)" "(Apache-2.0 or MIT) and BSD-3-Clause"
  row "bin/*.dll but libvips-42.dll" zlib "$(hv zlib)" "Zlib"
  row "bin/mcp-read.exe and our DLLs" mingw-w64 "$(hv mingw-w64)" "mingw-w64 runtime and winpthreads: ZPL-2.1, MIT and public domain"
  row "bin/mcp-read.exe and our DLLs" gcc-runtime "$(hv gcc-runtime)" "libstdc++ and libgcc: GPL-3+ with the GCC Runtime Library Exception"
  row "share/misc/magic.mgc" file "${built[file]}" "BSD-2-Clause (Debian's libmagic-mgc of the same version)"
  row "bin/libmcpread_pdf.dll" mcp-read "$version" "GPL-3 as combined with poppler (above); its own source Apache-2.0"
  row "bin/libmcpread_pdf.dll (linked in)" poppler "${built[poppler]}" "GPL-2 or GPL-3"
  row "bin/libmcpread_pdf.dll (linked in)" qpdf "${built[qpdf]}" "Apache-2.0 or Artistic-2.0"
  row "bin/libmcpread_pdf.dll (linked in)" freetype "${built[freetype]}" "FTL or GPL-2+"
  row "bin/lib{mcpread_pdf,tesseract-5}.dll (in)" libjpeg-turbo "${built[libjpeg-turbo]}" "IJG, BSD-3-Clause and Zlib"
  row "bin/lib{mcpread_pdf,tesseract-5}.dll (in)" libpng "${built[libpng1.6]}" "libpng (PNG Reference Library licence)"
  row "bin/libtesseract-5.dll" tesseract "${built[tesseract]}" "Apache-2.0"
  row "bin/libtesseract-5.dll (linked in)" leptonica "${built[leptonlib]}" "BSD-2-Clause (Leptonica licence)"
  row "bin/libarchive-13.dll" libarchive "${built[libarchive]}" "BSD-2-Clause (and others its copyright file lists); zlib and the GCC runtime linked in"
  row "bin/libarchive-13.dll (linked in)" bzip2 "${built[bzip2]}" "BSD-style (bzip2 licence)"
  row "bin/libarchive-13.dll (linked in)" xz-utils "${built[xz-utils]}" "public domain (liblzma)"
  row "bin/libarchive-13.dll (linked in)" libzstd "${built[libzstd]}" "BSD-3-Clause or GPL-2"
  row "bin/libfreexl-1.dll" freexl "${built[freexl]}" "MPL-1.1 or GPL-2+ or LGPL-2.1+; the GCC runtime linked in"
  row "share/tessdata/eng.traineddata" tessdata-eng "$(hv tessdata-eng)" "Apache-2.0"
  row "share/tessdata/osd.traineddata" tessdata-osd "$(hv tessdata-osd)" "Apache-2.0"
  row "share/poppler/" poppler-data "$(hv poppler-data)" "cMap/ BSD-3-Clause (Adobe), cidToUnicode/ and the other tables GPL-2 (LICENSES/poppler-data)"
  echo
  echo "The LGPL parts: libvips-42.dll is a separate DLL that may be replaced by a compatible build;"
  echo "nettle is linked statically, and mcp-read's source (Apache-2.0) and the build recipe"
  echo "(scripts/windows/deps.sh) let it be relinked with a modified nettle."
} >"$dir/LICENSES/README"

home=$(node -p 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).repository' "$repo/packaging/identity.json")
cat >"$dir/README.md" <<EOF
# mcp-read $version for Windows x64

An MCP server whose \`read\` tool gives a model any file the way it needs it. Windows 10 or later,
x64. Run \`bin\\mcp-read.exe\` with the folders it may read, e.g.

    C:\\path\\to\\$name\\bin\\mcp-read.exe C:\\Users\\me\\projects

Keep the folder together: the .exe loads the DLLs beside it and libmagic's database from
\`share\\misc\\magic.mgc\`. Host configurations: $home#install

PDFs are read by the plugin bin\\libmcpread_pdf.dll (poppler, GPL: see LICENSES/README); OCR
reads English (share\\tessdata\\eng.traineddata; other languages are not shipped yet) and turns
sideways scans upright (osd.traineddata, which also names a script English does not read).
This build was cross-compiled with mingw-w64 and proven under Wine 8.0; it has not been run on a
Windows machine by the project. Licences: LICENSE (mcp-read) and LICENSES/README (each bundled part).
EOF

# The zip: names sorted, times from SOURCE_DATE_EPOCH (default 2000-01-01), no extra attributes.
find "$dir" -exec touch -h -d "@$epoch" {} +
(cd "$out" && find "$name" -print | sort | zip -X -q -@ "$name.zip")
echo "windows bundle: $dir ($(du -sh "$dir" | cut -f1)), $out/$name.zip ($(du -h "$out/$name.zip" | cut -f1))"
