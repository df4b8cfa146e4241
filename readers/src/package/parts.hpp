#pragma once
// A zip package's parts as the document, presentation and e-book readers walk them: package paths,
// XML parts parsed under the package limits (package/xml.hpp) and Office Open XML relationships
// (read here for every OOXML reader, the workbooks' too).
// Internal to the readers library.
#include "package/xml.hpp"
#include "package/zip_archive.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace mcpread::readers::package {

// The folder part of a package path, with its slash ("ppt/slides/" for "ppt/slides/slide1.xml").
std::string folder_of(std::string_view part);

struct Rel {
  std::string target;  // package path, or the URL of an external target
  std::string type;    // the last part of the type URI ("slide", "image", "notesSlide")
  bool external = false;
};
using Rels = std::map<std::string, Rel, std::less<>>;  // by relationship Id

// The relationships of `part` ("" for the package's own), from its _rels/<name>.rels, by Id (of an
// Id written twice, the first). True and none when there is no .rels; false with the reason in
// *error, and none, when it is there but cannot be read: over `cap` bytes (0: the package's
// limit for an entry), over the package limits, not XML.
bool read_rels(ZipArchive& zip, std::string_view part, Rels* out, std::string* error, std::uint64_t cap = 0);
// The same with a .rels that cannot be read taken for none: for a reader that then falls back on
// the parts' usual names.
Rels rels_or_none(ZipArchive& zip, std::string_view part, std::uint64_t cap = 0);

class Parts {
 public:
  Parts(ZipArchive& zip, std::string& error) : zip_(zip), error_(error) {}
  // Parses `part` into *doc; false with the reason in the error (missing, over a limit, not XML).
  bool load(const std::string& part, pugi::xml_document* doc);
  // read_rels() under the package limits, the reason in the error.
  bool rels(const std::string& part, Rels* out) { return read_rels(zip_, part, out, &error_); }
  bool has(const std::string& part) const { return zip_.find(part) != nullptr; }
  ZipArchive& zip() { return zip_; }
  std::string& error() { return error_; }

 private:
  ZipArchive& zip_;
  std::string& error_;
};

}  // namespace mcpread::readers::package
