#pragma once
// Opening a zip package for one read, the same way for every zip-based format (DOCX, ODT, XLSX,
// ODS, PPTX, ODP, EPUB): an OLE2 compound file met instead (an encrypted OOXML package or a legacy
// Office file) is refused in words that say which, then the zip is opened under the limits the
// read's ReadLimits set. Internal to the readers library.
#include "mcpread/readers/access.hpp"
#include "mcpread/readers/outcome.hpp"
#include "mcpread/readers/read.hpp"
#include "mcpread/readers/registry.hpp"
#include "package/zip_archive.hpp"
#include "package/zip_head.hpp"

#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace mcpread::readers::package {

// The zip limits of one read: --office-max-unpacked-bytes caps all bytes inflated and each entry.
ZipLimits zip_limits(const ReadLimits& limits);

// The command-line option that sets them, declared by one zip-based reader (the registry refuses
// an option declared twice).
const std::vector<ReaderOption>& zip_options();

// What a reader expects the package to be, in the words of its refusals.
struct Expected {
  std::string_view article;         // "a Word document": "<path> cannot be read as a Word document: ..."
  zip_head::CompoundFileWords ole2;  // what an OLE2 compound file met instead is called
};

// A package opened for reading.
struct Opened {
  std::unique_ptr<ZipArchive> zip;  // never null
  std::string path;                 // the file's path (or the name given for bytes), valid UTF-8
  nlohmann::json meta;              // "path" and "size", for the outcome
  std::string cache_key;            // PartCache::key_of the file; empty for bytes in memory
  std::string cannot;               // "<path> cannot be read as <article>: ", for the reader's errors
};

// The opened package, or the error outcome refusing the file (an OLE2 compound file, or a zip
// libzip cannot open).
std::variant<Opened, ReadOutcome> open(const OpenedFile& file, const ZipLimits& limits, const Expected& expected);
// The same from bytes in memory (tests, fuzzing); `name` stands for the path in messages.
std::variant<Opened, ReadOutcome> open(std::string_view bytes, std::string_view name, const ZipLimits& limits,
                                       const Expected& expected);

}  // namespace mcpread::readers::package
