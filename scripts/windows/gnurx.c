/* POSIX regex names over TRE's (deps.sh). file's configure looks for regexec in libgnurx on
 * mingw, which Debian does not have; TRE (Debian's tre source) provides the same functions
 * under tre_ names, and its <tre/regex.h> maps the names for code that includes it. */
#include <tre/tre.h>

int regcomp(regex_t *preg, const char *regex, int cflags) { return tre_regcomp(preg, regex, cflags); }

int regexec(const regex_t *preg, const char *string, size_t nmatch, regmatch_t pmatch[], int eflags) {
  return tre_regexec(preg, string, nmatch, pmatch, eflags);
}

size_t regerror(int errcode, const regex_t *preg, char *errbuf, size_t errbuf_size) {
  return tre_regerror(errcode, preg, errbuf, errbuf_size);
}

void regfree(regex_t *preg) { tre_regfree(preg); }
