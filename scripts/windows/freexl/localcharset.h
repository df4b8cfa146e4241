/* freexl.c includes libcharset's header on Windows but calls nothing from it. */
