#pragma once
// libfreexl, opened with dlopen on the first .xls read, run in a child process. libfreexl 1.0.6
// reads out of bounds on some damaged workbooks: fuzzing found one whose string record makes it
// hand iconv a wild pointer, which crashes one open and not the next, as the stack it reads
// happens to hold. So the server never calls it: a child opens the workbook, reads every cell of
// every sheet and sends them back (xls_book.hpp); a child that dies, or runs past its limits,
// costs one read. Windows has no fork: there libfreexl runs in the server. Internal to the
// readers library.
#include "mcpread/readers/cancel.hpp"
#include "sheets/xls_book.hpp"

#include <cstddef>
#include <string>

namespace mcpread::readers::sheets {

// The workbook libfreexl reads at `path` (/proc/self/fd/N naming `fd`, or -1 when the path is a
// name), its cells' text and a few bytes each at most `budget` bytes (past it the book is cut:
// XlsBook::cut). True with *book (whose `error` says why libfreexl refused it, if it did); false with a
// clause in *error when libfreexl cannot be loaded or its child did not end well ("libfreexl
// crashed reading it (signal 11, Segmentation fault)").
bool read_with_freexl(const std::string& path, int fd, std::size_t budget, XlsBook* book, std::string* error,
                      const CancelToken& cancel);

}  // namespace mcpread::readers::sheets
