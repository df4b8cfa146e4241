/* iconv for libfreexl on Windows, which has no iconv (and Debian ships no win-iconv or GNU
 * libiconv for mingw). freexl converts a workbook's strings to UTF-8 from the code page its
 * CODEPAGE record names ("CP1252", "CP932", "MacRoman", "ASCII"...) or from UTF-16LE; Windows
 * has every one of those code pages, so the conversion is the system's (MultiByteToWideChar,
 * then WideCharToMultiByte to UTF-8). Any other pair fails with EINVAL, as iconv_open does for an
 * unknown one. Separate from utf16_iconv.c (poppler's): that one converts both ways between
 * UTF-8 and UTF-16 by hand and is part of the PDF prefix's cache key.
 *
 * Contract: freexl converts each string whole, into a buffer four times its length, so this
 * iconv converts the whole input or nothing: E2BIG when the output would not fit, EILSEQ when
 * the input is not valid in its code page, EINVAL for an odd number of UTF-16 bytes. The input
 * and output pointers advance over what was converted. */
#include "iconv.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

enum { utf16le = 1200 }; /* Windows' own number for UTF-16LE, which MultiByteToWideChar lacks */

static int named(const char *code, const char *want) {
  for (; *code && *want; ++code, ++want) {
    char c = *code >= 'a' && *code <= 'z' ? (char)(*code - 'a' + 'A') : *code;
    if (c != *want) return 0;
  }
  return *code == *want;
}

/* The Windows code page for an iconv name freexl uses; 0 for any other. */
static UINT code_page(const char *from) {
  if (named(from, "UTF-16LE")) return utf16le;
  if (named(from, "ASCII")) return 20127;
  if (named(from, "MACROMAN")) return 10000;
  if ((from[0] == 'C' || from[0] == 'c') && (from[1] == 'P' || from[1] == 'p') && from[2] != '\0') {
    UINT cp = 0;
    for (const char *p = from + 2; *p; ++p) {
      if (*p < '0' || *p > '9' || cp > 100000) return 0;
      cp = cp * 10 + (UINT)(*p - '0');
    }
    return IsValidCodePage(cp) ? cp : 0;
  }
  return 0;
}

iconv_t iconv_open(const char *to, const char *from) {
  const UINT cp = named(to, "UTF-8") ? code_page(from) : 0;
  if (cp == 0) {
    errno = EINVAL;
    return (iconv_t)-1;
  }
  return (iconv_t)(uintptr_t)cp;
}

int iconv_close(iconv_t cd) {
  (void)cd;
  return 0;
}

static size_t fail(int code, WCHAR *wide) {
  free(wide);
  errno = code;
  return (size_t)-1;
}

size_t iconv(iconv_t cd, char **in, size_t *in_left, char **out, size_t *out_left) {
  if (in == NULL || *in == NULL || *in_left == 0) return 0; /* no shift state to reset */
  const UINT cp = (UINT)(uintptr_t)cd;
  if (*in_left > INT_MAX / 2) return fail(E2BIG, NULL);
  const int bytes = (int)*in_left;
  int units = 0;
  WCHAR *wide = NULL;
  if (cp == utf16le) {
    if (bytes % 2 != 0) return fail(EINVAL, NULL);
    units = bytes / 2;
    wide = malloc((size_t)units * sizeof *wide);
    if (wide == NULL) return fail(ENOMEM, NULL);
    memcpy(wide, *in, (size_t)bytes); /* little-endian, as Windows' WCHAR */
  } else {
    units = MultiByteToWideChar(cp, MB_ERR_INVALID_CHARS, *in, bytes, NULL, 0);
    if (units <= 0) return fail(EILSEQ, NULL);
    wide = malloc((size_t)units * sizeof *wide);
    if (wide == NULL) return fail(ENOMEM, NULL);
    if (MultiByteToWideChar(cp, MB_ERR_INVALID_CHARS, *in, bytes, wide, units) != units)
      return fail(EILSEQ, wide);
  }
  const int written = WideCharToMultiByte(CP_UTF8, WC_ERR_INVALID_CHARS, wide, units, NULL, 0, NULL, NULL);
  if (written <= 0) return fail(EILSEQ, wide); /* a lone surrogate */
  if ((size_t)written > *out_left) return fail(E2BIG, wide);
  WideCharToMultiByte(CP_UTF8, WC_ERR_INVALID_CHARS, wide, units, *out, written, NULL, NULL);
  free(wide);
  *out += written;
  *out_left -= (size_t)written;
  *in += bytes;
  *in_left = 0;
  return 0;
}
