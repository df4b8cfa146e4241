/* The C interface of libmcpread_pdf.so, the plugin that reads PDFs with poppler-cpp and writes
 * page subsets with qpdf. mcp-read loads it with dlopen on the first PDF read (see
 * readers/src/pdf_loader.cpp), so that start-up does not pay for loading poppler and qpdf.
 *
 * Only C types cross this boundary: mcp-read links libstdc++ statically and the plugin uses the
 * shared one, so no C++ object, exception or allocation may pass from one side to the other.
 * Bytes and text come back through a sink callback, called zero or more times with pieces to
 * append; error texts (one line, UTF-8, no final period) are written NUL-terminated into a
 * buffer the caller provides, truncated to fit. No function throws.
 *
 * Pages are numbered from 1. A document handle may be used by one thread at a time, with one
 * exception: mcpread_pdf_page_marks reads with qpdf alone, and may run in one thread while
 * another runs those that read with poppler alone (mcpread_pdf_page_text given `marks`,
 * mcpread_pdf_page_size, mcpread_pdf_render_png). Different handles may be used concurrently. */
#ifndef MCPREAD_PDF_PLUGIN_API_H
#define MCPREAD_PDF_PLUGIN_API_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever a signature or a meaning below changes; the loader refuses other versions. */
#define MCPREAD_PDF_API_VERSION 4

/* Results of the functions returning int. */
enum mcpread_pdf_status {
  MCPREAD_PDF_OK = 0,
  MCPREAD_PDF_NEEDS_PASSWORD = 1, /* encrypted, and the password given (or "") does not open it */
  MCPREAD_PDF_DAMAGED = 2,        /* starts like a PDF but cannot be parsed */
  MCPREAD_PDF_NOT_PDF = 3,        /* no %PDF- header in the first 1024 bytes, and unparsable */
  MCPREAD_PDF_BAD_PAGE = 4,       /* page number outside 1..page count */
  MCPREAD_PDF_FAILED = 5          /* anything else: out of memory, rendering or writing failed */
};

typedef struct mcpread_pdf_doc mcpread_pdf_doc; /* opaque */

/* Receives a piece of output: `size` bytes at `data`, valid only during the call. */
typedef void (*mcpread_pdf_sink)(void* ctx, const char* data, size_t size);

/* MCPREAD_PDF_API_VERSION as the plugin was built. */
typedef int (*mcpread_pdf_api_version_fn)(void);

/* Opens a PDF held in memory. The `size` bytes at `data` are NOT copied: they must stay valid
 * and unchanged until mcpread_pdf_close. `password` may be NULL (same as ""): it is tried as the
 * user password, then as the owner password. On success *out holds the handle; otherwise *out is
 * NULL and `error` says why (poppler's or qpdf's reason). */
typedef int (*mcpread_pdf_open_fn)(const char* data, size_t size, const char* password,
                                   mcpread_pdf_doc** out, char* error, size_t error_size);

typedef void (*mcpread_pdf_close_fn)(mcpread_pdf_doc* doc);

/* Number of pages (0 or more). */
typedef int (*mcpread_pdf_page_count_fn)(const mcpread_pdf_doc* doc);

/* 1 when the file is encrypted (it was opened with the password given), else 0. */
typedef int (*mcpread_pdf_is_encrypted_fn)(const mcpread_pdf_doc* doc);

/* An entry of the document information dictionary ("Title", "Author", "Subject", "Keywords",
 * "Creator", "Producer") as UTF-8, sent to `sink` in one piece. Returns 1 when present and
 * non-empty, else 0 (and the sink is not called). */
typedef int (*mcpread_pdf_info_fn)(const mcpread_pdf_doc* doc, const char* key,
                                   mcpread_pdf_sink sink, void* ctx);

/* Size of a page's crop box in points (1/72 inch), as displayed: swapped for /Rotate 90 or 270. */
typedef int (*mcpread_pdf_page_size_fn)(const mcpread_pdf_doc* doc, int page, double* width_pt,
                                        double* height_pt, char* error, size_t error_size);


/* Renders a page at `dpi` (anti-aliased, on white, /Rotate applied) and sends it to `sink` as an
 * 8-bit RGB PNG; *width and *height receive its size in pixels. */
typedef int (*mcpread_pdf_render_png_fn)(mcpread_pdf_doc* doc, int page, double dpi, int* width,
                                         int* height, mcpread_pdf_sink sink, void* ctx,
                                         char* error, size_t error_size);

/* Writes a new, unencrypted PDF holding only the `count` pages listed (in that order, each at
 * most once) and sends it to `sink`. Works on encrypted files opened with their password. */
typedef int (*mcpread_pdf_write_subset_fn)(mcpread_pdf_doc* doc, const int* pages, size_t count,
                                           mcpread_pdf_sink sink, void* ctx, char* error,
                                           size_t error_size);

/* What a page's content draws, counted in its content streams and the form XObjects they draw. */
typedef struct mcpread_pdf_marks {
  /* Glyphs shown with text operators (Tj, TJ, ', "): a count independent of whether a font maps
   * its glyphs to Unicode, to compare with the length of the extracted text. Codes of Type0
   * (composite) fonts count as 2 bytes each; in simple fonts the space (code 32) is not counted. */
  long glyphs;
  long images;      /* image XObjects drawn (Do) and inline images (BI ... EI) */
  long paints;      /* paths stroked or filled, and shadings (sh) */
  long annotations; /* entries of the page's /Annots, which are drawn over its content */
  /* How the content turns some of its text (bits): 1, drawn at an angle more than about 3 degrees
   * off a quarter turn; 2, mirrored. */
  int turned_text;
} mcpread_pdf_marks;

/* Counts what page `page` draws into *marks. A page with all four counts 0 shows nothing. */
typedef int (*mcpread_pdf_page_marks_fn)(mcpread_pdf_doc* doc, int page, mcpread_pdf_marks* marks,
                                         char* error, size_t error_size);

/* The text of a page as UTF-8 in poppler's physical layout (lines as they stand on the page,
 * columns side by side, padded with spaces; may be empty), sent to `sink` in one piece; runs of
 * turned text (see turned_text) each whole on a line of its own. `marks` is the page's count when
 * the caller has made it (mcpread_pdf_page_marks): then only poppler reads the page (see above);
 * NULL: the page is counted here. */
typedef int (*mcpread_pdf_page_text_fn)(mcpread_pdf_doc* doc, int page,
                                        const mcpread_pdf_marks* marks, mcpread_pdf_sink sink,
                                        void* ctx, char* error, size_t error_size);

/* The exported functions, with these names and the types above. */
int mcpread_pdf_api_version(void);
int mcpread_pdf_open(const char* data, size_t size, const char* password, mcpread_pdf_doc** out,
                     char* error, size_t error_size);
void mcpread_pdf_close(mcpread_pdf_doc* doc);
int mcpread_pdf_page_count(const mcpread_pdf_doc* doc);
int mcpread_pdf_is_encrypted(const mcpread_pdf_doc* doc);
int mcpread_pdf_info(const mcpread_pdf_doc* doc, const char* key, mcpread_pdf_sink sink, void* ctx);
int mcpread_pdf_page_size(const mcpread_pdf_doc* doc, int page, double* width_pt,
                          double* height_pt, char* error, size_t error_size);
int mcpread_pdf_page_text(mcpread_pdf_doc* doc, int page, const mcpread_pdf_marks* marks,
                          mcpread_pdf_sink sink, void* ctx, char* error, size_t error_size);
int mcpread_pdf_page_marks(mcpread_pdf_doc* doc, int page, mcpread_pdf_marks* marks, char* error,
                           size_t error_size);
int mcpread_pdf_render_png(mcpread_pdf_doc* doc, int page, double dpi, int* width, int* height,
                           mcpread_pdf_sink sink, void* ctx, char* error, size_t error_size);
int mcpread_pdf_write_subset(mcpread_pdf_doc* doc, const int* pages, size_t count,
                             mcpread_pdf_sink sink, void* ctx, char* error, size_t error_size);

#ifdef __cplusplus
}
#endif

#endif /* MCPREAD_PDF_PLUGIN_API_H */
