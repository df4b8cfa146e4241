#pragma once
// A zip package's parts as the presentation and e-book readers walk them: package paths, XML
// parts parsed under the package limits (package/xml.hpp) and Office Open XML relationships.
// Internal to the readers library.
#include "package/xml.hpp"
#include "package/zip_archive.hpp"

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

class Parts {
 public:
  Parts(ZipArchive& zip, std::string& error) : zip_(zip), error_(error) {}
  // Parses `part` into *doc; false with the reason in the error (missing, over a limit, not XML).
  bool load(const std::string& part, pugi::xml_document* doc);
  // The relationships of `part` (from its _rels/<name>.rels), empty when it has none; false when
  // the .rels part is there but unreadable.
  bool rels(const std::string& part, std::map<std::string, Rel>* out);
  bool has(const std::string& part) const { return zip_.find(part) != nullptr; }
  ZipArchive& zip() { return zip_; }
  std::string& error() { return error_; }

 private:
  ZipArchive& zip_;
  std::string& error_;
};

}  // namespace mcpread::readers::package
