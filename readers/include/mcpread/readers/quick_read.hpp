#pragma once
// Whether a read is certain to be quick, so that a transport may answer it on the thread that
// received it instead of handing it to the worker pool and back (two thread hand-offs, most of a
// small text read's time). Only a hint: the read itself checks everything again.
#include <cstdint>
#include <string>

namespace mcpread::readers {

// True when `path` is absolute and names a regular file of 1 to `max_bytes` bytes that
// classification reads as plain text, and whose first 64 KiB and last byte are in the page cache
// (preadv2 with RWF_NOWAIT). False for everything else: FIFOs, sockets and devices (never
// opened), directories, larger files, other kinds (images, PDFs, notebooks... decode for a while),
// files not cached or on a filesystem that cannot say (a slow disk or a network filesystem
// would block the thread). Costs a stat, an open and two reads of cached pages.
bool quick_text_read(const std::string& path, std::uint64_t max_bytes);

}  // namespace mcpread::readers
