/* fopen with a UTF-8 path, for freexl on Windows (see utf8_fopen.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <windows.h>

FILE *mcpread_fopen_utf8(const char *path, const char *mode) {
  wchar_t wide_mode[8];
  const int path_units = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, NULL, 0);
  if (path_units <= 0 || MultiByteToWideChar(CP_UTF8, 0, mode, -1, wide_mode, 8) <= 0) {
    errno = EINVAL;
    return NULL;
  }
  wchar_t *wide_path = malloc((size_t)path_units * sizeof *wide_path);
  if (wide_path == NULL) {
    errno = ENOMEM;
    return NULL;
  }
  MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, wide_path, path_units);
  FILE *file = _wfopen(wide_path, wide_mode);
  free(wide_path);
  return file;
}
