#include "slides/package.hpp"

namespace mcpread::readers::sections {

bool Package::load(const std::string& part, pugi::xml_document* doc) {
  auto bytes = zip_.read(part, &error_);
  return bytes && package::xml::parse(std::move(*bytes), part, doc, &error_);
}

bool Package::rels(const std::string& part, std::map<std::string, Rel>* out) {
  const std::string folder = folder_of(part);
  const std::string rels_part = folder + "_rels/" + part.substr(folder.size()) + ".rels";
  if (!has(rels_part)) return true;
  pugi::xml_document d;
  if (!load(rels_part, &d)) return false;
  for (pugi::xml_node r : package::xml::child(d, "Relationships").children()) {
    if (!package::xml::is(r, "Relationship")) continue;
    const std::string_view type = package::xml::attr(r, "Type");
    const std::string_view target = package::xml::attr(r, "Target");
    Rel rel;
    rel.external = package::xml::attr(r, "TargetMode") == "External";
    // A target that climbs out of the package resolves to nothing: it is never read.
    rel.target = rel.external ? std::string(target) : package::resolve_part(folder, target);
    const auto slash = type.rfind('/');
    rel.type = std::string(slash == std::string_view::npos ? type : type.substr(slash + 1));
    out->emplace(std::string(package::xml::attr(r, "Id")), std::move(rel));
  }
  return true;
}

}  // namespace mcpread::readers::sections
