/* The POSIX functions libmagic calls that mingw lacks, archived as libgnurx (deps.sh): file's
 * configure looks for regexec in libgnurx on mingw, which Debian does not package.
 *
 * regex: TRE (Debian's tre source) provides the functions under tre_ names, and its
 * <tre/regex.h> maps the names for code that includes it; these give configure's link test and
 * anything else the plain names. pipe: only reached by libmagic's external decompressors
 * (compress.c), which mcp-read never asks for (no MAGIC_COMPRESS), but linked all the same. */
#include <fcntl.h>
#include <io.h>
#include <tre/tre.h>

int regcomp(regex_t *preg, const char *regex, int cflags) { return tre_regcomp(preg, regex, cflags); }

int regexec(const regex_t *preg, const char *string, size_t nmatch, regmatch_t pmatch[], int eflags) {
  return tre_regexec(preg, string, nmatch, pmatch, eflags);
}

size_t regerror(int errcode, const regex_t *preg, char *errbuf, size_t errbuf_size) {
  return tre_regerror(errcode, preg, errbuf, errbuf_size);
}

void regfree(regex_t *preg) { tre_regfree(preg); }

int pipe(int fds[2]) { return _pipe(fds, 64 * 1024, _O_BINARY | _O_NOINHERIT); }
