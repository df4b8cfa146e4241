/* The C interface of libmcpread_revenge.so, the plugin that reads the documents of The Document
 * Liberation Project's importers (libwpd, libwps, libmwaw, libabw, libstaroffice, libetonyek,
 * libe-book, and the drawing importers libvisio, libmspub, libcdr, libfreehand, libpagemaker,
 * libqxp, libzmf) through librevenge. mcp-read loads it with dlopen on the first such read (see
 * readers/src/revenge/revenge_api.cpp), so that start-up does not load a dozen libraries, and
 * calls it in a forked child process: the importers crash or loop on some damaged files.
 *
 * Only C types cross this boundary: mcp-read links libstdc++ statically and the plugin uses the
 * shared one, so no C++ object, exception or allocation may pass from one side to the other.
 * The document comes back as JSON through a sink callback; error texts (one line, UTF-8, no final
 * period) are written NUL-terminated into a buffer the caller provides, truncated to fit. No
 * function throws. */
#ifndef MCPREAD_REVENGE_PLUGIN_API_H
#define MCPREAD_REVENGE_PLUGIN_API_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever a signature or a meaning below changes; the loader refuses other versions. */
#define MCPREAD_REVENGE_API_VERSION 3

/* Receives a piece of output: `size` bytes at `data`, valid only during the call. */
typedef void (*mcpread_revenge_sink)(void* ctx, const char* data, size_t size);

/* MCPREAD_REVENGE_API_VERSION as the plugin was built. */
typedef int (*mcpread_revenge_api_version_fn)(void);

/* Recognises `data` with each importer's own detection and parses it as a text document.
 * Returns 1 with the document written to `sink` as one JSON object:
 *   {"format": "WordPerfect document",
 *    "blocks": [{"type": "paragraph"|"heading"|"list_item"|"table", "level": n, "ordered": b,
 *                "number": n, "list": "1", "text": "inline Markdown", "rows": [["cell", ...]],
 *                "notes": [i, ...], "images": [i, ...]}, ...],
 *    "notes": ["text", ...],               (labelled 1, 2, ... in order)
 *    "images": [{"mime": "image/png", "base64": "..."}, ...],
 *    "pictures_not_shown": n, "comments": n, "text_cut": b}
 * Returns 0 with a sentence in `error` when no importer recognises it, when it is of another
 * kind (a spreadsheet, a presentation, a drawing), encrypted, or fails to parse. */
typedef int (*mcpread_revenge_read_text_fn)(const unsigned char* data, size_t size, mcpread_revenge_sink sink,
                                            void* ctx, char* error, size_t error_size);

/* The same for spreadsheets (Numbers, Works, Lotus 1-2-3, Quattro Pro, StarCalc, the classic
 * Macintosh spreadsheets and databases), as one JSON object:
 *   {"format": "Lotus 1-2-3 spreadsheet",
 *    "sheets": [{"name": "Sheet1", "rows": [{"row": 1, "cells": [[0, "text"], ...]}, ...]}, ...],
 *    "cut": b}
 * rows 1-based and ascending, columns 0-based and ascending, only cells showing something; "cut"
 * when the cells went past the plugin's limits and the rest was dropped. */
typedef int (*mcpread_revenge_read_sheet_fn)(const unsigned char* data, size_t size, mcpread_revenge_sink sink,
                                             void* ctx, char* error, size_t error_size);

/* The same for decks of pages and slides: the drawings and publications (Visio, Publisher,
 * CorelDRAW, FreeHand, PageMaker, QuarkXPress, Zoner Draw) and Keynote presentations:
 *   {"format": "Microsoft Visio drawing", "unit": "page"|"slide",
 *    "pages": [{"name": "Page-1", "text": "paragraphs, blank lines between text objects, [Image N]",
 *               "notes": "a slide's speaker notes", "images": [i, ...]}, ...],
 *    "images": [{"mime": "image/png", "base64": "..."}, ...],
 *    "pictures_not_shown": n, "text_cut": b}
 * "[Image N]" in a page's text is images[N-1]; a page's "images" lists the indexes it shows. */
typedef int (*mcpread_revenge_read_deck_fn)(const unsigned char* data, size_t size, mcpread_revenge_sink sink,
                                            void* ctx, char* error, size_t error_size);

int mcpread_revenge_api_version(void);
int mcpread_revenge_read_text(const unsigned char* data, size_t size, mcpread_revenge_sink sink, void* ctx,
                              char* error, size_t error_size);
int mcpread_revenge_read_sheet(const unsigned char* data, size_t size, mcpread_revenge_sink sink, void* ctx,
                               char* error, size_t error_size);
int mcpread_revenge_read_deck(const unsigned char* data, size_t size, mcpread_revenge_sink sink, void* ctx,
                              char* error, size_t error_size);

#ifdef __cplusplus
}
#endif

#endif
