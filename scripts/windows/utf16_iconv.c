/* iconv for poppler-cpp on Windows, which has no iconv (and Debian ships no win-iconv or GNU
 * libiconv for mingw). poppler-cpp's one use of it, poppler-global.cpp's ustring::to_utf8 and
 * ustring::from_utf8, converts between UTF-8 and UTF-16LE, the only two directions opened here;
 * any other pair fails with EINVAL, as iconv_open does for an unknown one. Standalone C rather
 * than the readers' readers/src/charset/codepage_iconv.cpp: that one lives in mcp-read's own
 * namespace and headers, and a dependency's build cannot link it. Same contract as glibc's: the
 * input and output pointers advance over what was converted; E2BIG when the output is full,
 * EILSEQ at an invalid sequence, EINVAL at an incomplete one at the end of the input; no byte
 * order mark is written. Built by scripts/windows/deps-pdf.sh as libiconv.a with this iconv.h. */
#include "iconv.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

enum { to_utf8 = 1, to_utf16 = 2 };

static int named(const char *code, const char *want) {
  for (; *code && *want; ++code, ++want) {
    char c = *code >= 'a' && *code <= 'z' ? (char)(*code - 'a' + 'A') : *code;
    if (c != *want) return 0;
  }
  return *code == *want;
}

iconv_t iconv_open(const char *to, const char *from) {
  if (named(to, "UTF-8") && named(from, "UTF-16LE")) return (iconv_t)(intptr_t)to_utf8;
  if (named(to, "UTF-16LE") && named(from, "UTF-8")) return (iconv_t)(intptr_t)to_utf16;
  errno = EINVAL;
  return (iconv_t)-1;
}

int iconv_close(iconv_t cd) { (void)cd; return 0; }

/* One code point from UTF-16LE: units read (0 when incomplete, -1 when invalid). */
static int read_utf16(const unsigned char *p, size_t n, uint32_t *c) {
  if (n < 2) return 0;
  uint32_t u = p[0] | (uint32_t)p[1] << 8;
  if (u < 0xD800 || u > 0xDFFF) { *c = u; return 2; }
  if (u > 0xDBFF) return -1;
  if (n < 4) return 0;
  uint32_t v = p[2] | (uint32_t)p[3] << 8;
  if (v < 0xDC00 || v > 0xDFFF) return -1;
  *c = 0x10000 + ((u - 0xD800) << 10) + (v - 0xDC00);
  return 4;
}

/* One code point from UTF-8: bytes read (0 when incomplete, -1 when invalid). */
static int read_utf8(const unsigned char *p, size_t n, uint32_t *c) {
  static const uint32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
  int len = p[0] < 0x80 ? 1 : p[0] >= 0xC2 && p[0] < 0xE0 ? 2 : p[0] >= 0xE0 && p[0] < 0xF0 ? 3
          : p[0] >= 0xF0 && p[0] < 0xF5 ? 4 : -1;
  if (len < 0) return -1;
  uint32_t v = len == 1 ? p[0] : p[0] & (0x7F >> len);
  for (int i = 1; i < len; ++i) {
    if ((size_t)i >= n) return 0;
    if ((p[i] & 0xC0) != 0x80) return -1;
    v = v << 6 | (p[i] & 0x3F);
  }
  if (v < least[len] || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return -1;
  *c = v;
  return len;
}

size_t iconv(iconv_t cd, char **in, size_t *in_left, char **out, size_t *out_left) {
  if (in == NULL || *in == NULL) return 0; /* no shift state to reset */
  const int dir = (int)(intptr_t)cd;
  while (*in_left > 0) {
    const unsigned char *p = (const unsigned char *)*in;
    unsigned char buf[4];
    size_t w = 0;
    uint32_t c = 0;
    int r = dir == to_utf8 ? read_utf16(p, *in_left, &c) : read_utf8(p, *in_left, &c);
    if (r <= 0) { errno = r == 0 ? EINVAL : EILSEQ; return (size_t)-1; }
    if (dir == to_utf8) {
      if (c < 0x80) {
        buf[w++] = (unsigned char)c;
      } else {
        const int tail = c < 0x800 ? 1 : c < 0x10000 ? 2 : 3;
        buf[w++] = (unsigned char)(((0xFF00 >> (tail + 1)) & 0xFF) | c >> (6 * tail));
        for (int i = tail - 1; i >= 0; --i) buf[w++] = (unsigned char)(0x80 | (c >> (6 * i) & 0x3F));
      }
    } else {
      uint32_t units[2] = {c, 0};
      int n = 1;
      if (c >= 0x10000) {
        units[0] = 0xD800 + ((c - 0x10000) >> 10);
        units[1] = 0xDC00 + ((c - 0x10000) & 0x3FF);
        n = 2;
      }
      for (int i = 0; i < n; ++i) {
        buf[w++] = (unsigned char)(units[i] & 0xFF);
        buf[w++] = (unsigned char)(units[i] >> 8);
      }
    }
    if (w > *out_left) { errno = E2BIG; return (size_t)-1; }
    memcpy(*out, buf, w);
    *out += w; *out_left -= w;
    *in += r; *in_left -= (size_t)r;
  }
  return 0;
}
