#pragma once
// Windows only: iconv's three calls (iconv_open, iconv, iconv_close) for the charsets outside the
// WHATWG Encoding Standard, which charset.cpp hands to iconv on other systems. Windows has no
// iconv and Debian packages none for it; the system's code pages stand in for it here. A
// single-byte code page (DOS, EBCDIC, ISO-8859, Mac) is read once through MultiByteToWideChar into
// a table of 256 characters; UTF-32 and UCS-4 are decoded directly. Other names are unknown
// (iconv_open fails with EINVAL), as with an iconv that lacks them: charset.cpp then says so.
#if defined(_WIN32)
#include <cstddef>

struct codepage_iconv;
using iconv_t = codepage_iconv*;

iconv_t iconv_open(const char* to, const char* from);
std::size_t iconv(iconv_t cd, char** in, std::size_t* in_left, char** out, std::size_t* out_left);
int iconv_close(iconv_t cd);
#endif
