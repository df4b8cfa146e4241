#pragma once
// The files inside the roots as MCP resources, transport-free: file:// URIs to and from paths, a
// bounded walk of the roots for resources/list, and the contents of one file for resources/read,
// made by the same confinement and readers as the `read` tool. Text is the file's own text
// decoded to UTF-8 (not numbered); images, PDFs and audio are blobs as the readers prepare them.
#include "mcpread/readers/access.hpp"
#include "mcpread/readers/cancel.hpp"
#include "mcpread/readers/read.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mcpread::readers {

// file:///a%20b -> "/a b", file://localhost/x -> "/x". Empty for other schemes, other hosts,
// malformed percent-escapes and NUL bytes; a query or fragment is ignored.
std::string path_from_file_uri(std::string_view uri);
// "/a b" -> "file:///a%20b": letters, digits, "/-._~" are kept, every other byte is %XX.
std::string file_uri(std::string_view path);

// ---- resources/list ----

struct ResourceEntry {
  std::string uri;   // file:// URI of the path inside its root (a symbolic link keeps its own)
  std::string name;  // the path relative to its root; prefixed by the root's name when several
  std::string mime;  // by extension, empty when the name says nothing
  std::uint64_t size = 0;
};

struct ResourceListLimits {
  std::size_t max_listed = 10'000;   // files listed across all pages
  std::size_t max_walked = 100'000;  // directory entries looked at per walk
  std::size_t max_depth = 32;        // directories deeper than this are not entered
};

struct ResourcePage {
  std::vector<ResourceEntry> entries;  // the listing's entries [skip, skip + count)
  bool more = false;       // entries follow this page
  bool capped = false;     // a limit stopped the walk: some files are not listed at all
  bool cancelled = false;
};

// Walks the roots in order, each depth first with a directory's entries sorted by name, and
// returns one page of the regular files found. Skipped: names starting with '.', directories
// named node_modules or __pycache__, FIFOs, sockets and devices (never opened), and symbolic
// links except those that lead to a regular file inside the roots (linked directories are not
// entered). The same tree always gives the same order, so pages fit together.
ResourcePage list_resources(const Roots& roots, std::size_t skip, std::size_t count,
                            const ResourceListLimits& limits, const CancelToken& cancel);

// ---- resources/read ----

struct ResourceContent {
  std::string mime;
  bool blob = false;
  std::string text;    // when !blob: valid UTF-8
  Bytes data;          // when blob (sent as base64)
  nlohmann::json meta = nlohmann::json::object();  // the contents' _meta
};

enum class ResourceStatus {
  ok,
  not_found,    // nothing there, or outside the roots: the client sees the same answer
  unsupported,  // there, but not something resources serve (binary files, FIFOs, devices)
  failed,       // there, but reading it failed (permissions, damaged files, limits)
  cancelled,
};

struct ResourceReadResult {
  ResourceStatus status = ResourceStatus::ok;
  std::vector<ResourceContent> contents;  // when ok
  std::string message;                    // otherwise: complete, user-facing
};

// The contents of `path` (absolute) inside the roots:
// - text (any charset) and notebooks: the text decoded to UTF-8, at most
//   limits.text.max_output_bytes; a longer file is cut at a line end and its _meta says
//   truncated: true and next_offset, the line the `read` tool would continue from;
// - images: a blob as read_image prepares it (original bytes, or downscaled/converted);
// - PDFs: a blob of the PDF (read whole up to limits.pdf_max_pages pages, else those first
//   pages), then its text as a second, text/plain, item;
// - audio: a blob of the file's bytes; directories: their listing as text/plain.
// Notes that say what to read next (the rest of a listing, pages, rows) use `wording`.
ResourceReadResult read_resource(const Roots& roots, std::string_view path,
                                 const ReadLimits& limits, const CancelToken& cancel,
                                 const Wording& wording = {});

}  // namespace mcpread::readers
