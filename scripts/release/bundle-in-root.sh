#!/usr/bin/env bash
# Inside the build root, after build-in-root.sh: assembles the portable bundle in /out/<name>/
#   bin/mcp-read            RUNPATH $ORIGIN/../lib
#   lib/                    every shared library mcp-read, its plugin and what they dlopen need
#                           (glibc excepted), RUNPATH $ORIGIN
#   lib/mcp-read/           the PDF plugin, RUNPATH $ORIGIN/..
#   share/misc/magic.mgc    libmagic's database (the libmagic linked into mcp-read)
#   share/poppler/          poppler-data: CJK CMaps and CID-to-Unicode tables
#   LICENSES/               each bundled package's copyright file and an index
#
#   bundle-in-root.sh <name> [cross triplet, e.g. aarch64-linux-gnu]
set -euo pipefail
name=$1 triplet=${2:-}
out=/out/$name
rm -rf "$out" && mkdir -p "$out/bin" "$out/lib/mcp-read" "$out/share/misc" "$out/LICENSES"
# The target's multiarch triplet: the cross compiler's when the build was a cross build.
multiarch=${triplet:-$(gcc -dumpmachine | sed 's/-pc-/-/')}
strip=${triplet:+$triplet-}strip
libdir=/usr/lib/$multiarch

# What mcp-read opens with dlopen (readers/src/**: LazyLibrary candidates); ICU's and
# tesseract's sonames are the ones the build was made against.
icu=$(cat /stage/icu-major)
tesseract=$(ls "$libdir" | sed -n 's/^\(libtesseract\.so\.[0-9]*\)$/\1/p' | head -1)
dlopened=(libvips.so.42 libzip.so.4 libxml2.so.2 libarchive.so.13 libwv-1.2.so.4 libgsf-1.so.114 libolecf.so.1 libfreexl.so.1 libgmime-3.0.so.0 libdjvulibre.so.21 libjbig2dec.so.0 libchm.so.1 libpff.so.1 "libicuuc.so.$icu" "$tesseract"
          liboauth2.so.0 libjansson.so.4 libcurl.so.4)

# glibc's own libraries stay the host's: they must match its dynamic loader.
is_glibc() {
  case $1 in
    ld-linux*|libc.so.*|libm.so.*|libpthread.so.*|libdl.so.*|librt.so.*|libresolv.so.*|\
    libutil.so.*|libanl.so.*|libnsl.so.*|libmvec.so.*|libBrokenLocale.so.*|libthread_db.so.*) return 0 ;;
  esac
  return 1
}

# Each ELF's DT_NEEDED, resolved in this root's library folders and followed: read with readelf
# rather than ldd, so that it works the same for a cross build (an arm64 bundle made on amd64).
declare -A copied=()
copy_deps() {  # <elf>: copies every library it needs, and theirs, into lib/
  local soname path
  for soname in $(readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
    is_glibc "$soname" && continue
    [[ -n ${copied[$soname]:-} ]] && continue
    path=""
    for dir in "$libdir" "/lib/$multiarch" "$libdir/blas" "$libdir/lapack"; do
      [[ -e $dir/$soname ]] && { path=$dir/$soname; break; }
    done
    [[ -n $path ]] || { echo "bundle: $1 needs $soname, which is not in $libdir" >&2; exit 1; }
    copied[$soname]=$(readlink -f "$path")
    cp -L "$path" "$out/lib/$soname"
    copy_deps "$path"
  done
}

cp /stage/bin/mcp-read "$out/bin/"
cp /stage/lib/mcp-read/libmcpread_pdf.so /stage/lib/mcp-read/libmcpread_revenge.so "$out/lib/mcp-read/"
copy_deps "$out/bin/mcp-read"
copy_deps "$out/lib/mcp-read/libmcpread_pdf.so"
copy_deps "$out/lib/mcp-read/libmcpread_revenge.so"
for soname in "${dlopened[@]}"; do
  # Debian's libchm1 is not multiarch: its library is in /usr/lib.
  dir=$libdir
  [[ -e $dir/$soname || ! -e /usr/lib/$soname ]] || dir=/usr/lib
  [[ -e $dir/$soname ]] || { echo "bundle: $libdir/$soname is missing" >&2; exit 1; }
  copied[$soname]=$(readlink -f "$dir/$soname")
  cp -L "$dir/$soname" "$out/lib/$soname"
  copy_deps "$dir/$soname"
done

# ImageMagick's coders for the formats mcp-read lets it read (readers/src/image/vips_load.cpp:
# BMP, ICO and CUR, PSD, SGI, Sun raster, PCX): libvips 8.10 has no loaders of its own for them.
# Found through MAGICK_CODER_MODULE_PATH, which vips_api.cpp sets when lib/ImageMagick/coders exists.
mkdir -p "$out/lib/ImageMagick/coders"
for coder in magick bmp icon psd sgi sun pcx; do  # magick: the detection ImageMagick runs first
  for file in "$libdir"/ImageMagick-6.*/modules-Q16/coders/$coder.{so,la}; do
    cp "$file" "$out/lib/ImageMagick/coders/"
  done
  copy_deps "$out/lib/ImageMagick/coders/$coder.so"
done

# RUNPATHs relative to each file, and no debug symbols (Debian's libraries are stripped already).
"$strip" --strip-unneeded "$out/bin/mcp-read" "$out/lib/mcp-read/libmcpread_pdf.so" "$out/lib/mcp-read/libmcpread_revenge.so"
patchelf --set-rpath '$ORIGIN/../lib' "$out/bin/mcp-read"
patchelf --set-rpath '$ORIGIN/..' "$out/lib/mcp-read/libmcpread_pdf.so" "$out/lib/mcp-read/libmcpread_revenge.so"
for lib in "$out"/lib/*.so*; do patchelf --set-rpath '$ORIGIN' "$lib"; done
for lib in "$out"/lib/ImageMagick/coders/*.so; do patchelf --set-rpath '$ORIGIN/../..' "$lib"; done

# Data read at run time.
cp -L /usr/share/misc/magic.mgc "$out/share/misc/magic.mgc"
cp -a /usr/share/poppler "$out/share/poppler"

# Licences: each package a bundled file comes from, its copyright file and version.
{
  echo "mcp-read's own code is under the Apache License 2.0 (LICENSES/mcp-read): bin/mcp-read and"
  echo "the source of the PDF plugin, lib/mcp-read/libmcpread_pdf.so. The plugin is linked with"
  echo "poppler, under the GNU GPL (version 2 or 3): as combined with it, the plugin is distributed"
  echo "under the GNU GPL version 3 (LICENSES/GPL-3), with which the Apache License 2.0 is"
  echo "compatible; its source is mcp-read's readers/pdf_plugin/ and Debian's poppler source package"
  echo "of the version below. bin/mcp-read does not link poppler: it loads the plugin when it first"
  echo "reads a PDF, and without the plugin it refuses PDFs and reads everything else."
  echo
  echo "The word-processor plugin, lib/mcp-read/libmcpread_revenge.so, is mcp-read's code under the"
  echo "Apache License 2.0, linked with librevenge and the Document Liberation Project's importers"
  echo "(libwpd, libwps, libmwaw, libabw, libstaroffice, libetonyek, libe-book, libvisio, libmspub, libcdr,"
  echo "libfreehand, libpagemaker, libqxp, libzmf: MPL-2.0 or LGPL), which"
  echo "are bundled as the shared libraries listed below."
  echo
  echo "mcp-read's portable bundle (Debian $(cat /etc/debian_version), $multiarch) holds these"
  echo "files from Debian packages; each package's copyright and licence is LICENSES/<package>"
  echo "(the licence texts they name are LICENSES/<licence>)."
  echo
  printf '%-28s %-34s %s\n' FILE PACKAGE VERSION
  for soname in $(printf '%s\n' "${!copied[@]}" | sort); do
    pkg=$(dpkg -S "${copied[$soname]}" 2>/dev/null | head -1 | cut -d: -f1 || true)
    [[ -z $pkg ]] && pkg=$(dpkg -S "$(basename "${copied[$soname]}")" | head -1 | cut -d: -f1)
    printf '%-28s %-34s %s\n' "lib/$soname" "$pkg" "$(dpkg-query -W -f='${Version}' "$pkg")"
    echo "$pkg" >>/tmp/bundle-packages
  done
  for data in libmagic-mgc poppler-data; do
    printf '%-28s %-34s %s\n' "share/ ($data)" "$data" "$(dpkg-query -W -f='${Version}' "$data")"
    echo "$data" >>/tmp/bundle-packages
  done
} >"$out/LICENSES/README"
sort -u /tmp/bundle-packages | while read -r pkg; do
  cp "/usr/share/doc/$pkg/copyright" "$out/LICENSES/$pkg" 2>/dev/null ||
    cp "/usr/share/doc/${pkg%%:*}/copyright" "$out/LICENSES/$pkg"
done
rm -f /tmp/bundle-packages
cp /src/LICENSE "$out/LICENSES/mcp-read"
# The licence texts the packages' copyright files name by their Debian path.
for licence in Apache-2.0 GPL-2 GPL-3 LGPL-2 LGPL-2.1 LGPL-3; do
  cp /usr/share/common-licenses/$licence "$out/LICENSES/$licence"
done
tar -C /out -czf "/out/$name.tar.gz" --owner=0 --group=0 --numeric-owner --sort=name \
  --mtime=@"${SOURCE_DATE_EPOCH:-0}" "$name"
