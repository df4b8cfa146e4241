/* Forced into freexl.c's compile (-include) on Windows: freexl opens the workbook with fopen, whose
 * path Windows reads in the ANSI code page, so a name outside it (Cyrillic on a Western system)
 * cannot be opened. mcp-read hands freexl UTF-8 paths; this fopen takes them as UTF-8. */
#ifndef MCPREAD_FREEXL_UTF8_FOPEN_H
#define MCPREAD_FREEXL_UTF8_FOPEN_H
#include <stdio.h>
FILE *mcpread_fopen_utf8(const char *path, const char *mode);
#define fopen mcpread_fopen_utf8
#endif
