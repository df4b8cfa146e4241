#pragma once
// libfreexl 1.0.6 reads out of bounds while it opens some damaged workbooks (fuzzing found one
// whose string record makes it hand iconv a wild pointer): an open that would crash the server.
// Before the server opens a workbook, a child process opens it first; a child that dies, or
// runs past its CPU limit, refuses the file and the server never opens it. POSIX only (the
// Windows build has no fork: there the open is not probed). Internal to the readers library.
#include <string>

namespace mcpread::readers::sheets {

using FreexlOpen = int (*)(const char*, const void**);
using FreexlClose = int (*)(const void*);

// True when opening `path` (which may name the open descriptor `fd`, -1 when none) with libfreexl
// in a child ends normally, or a child did so before for
// the file of that `identity` (file_io::identity_key; empty: no memory of it); false with a
// clause in *error otherwise ("libfreexl crashed opening it (signal 11, Segmentation fault)").
bool probe_freexl_open(FreexlOpen open, FreexlClose close, int fd, const std::string& path,
                       const std::string& identity, std::string* error);

}  // namespace mcpread::readers::sheets
