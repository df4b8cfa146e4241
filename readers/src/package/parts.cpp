#include "package/parts.hpp"

namespace mcpread::readers::package {

std::string folder_of(std::string_view part) {
  const auto slash = part.rfind('/');
  return slash == std::string_view::npos ? std::string() : std::string(part.substr(0, slash + 1));
}

bool Parts::load(const std::string& part, pugi::xml_document* doc) {
  auto bytes = zip_.read(part, &error_);
  return bytes && xml::parse(std::move(*bytes), part, doc, &error_);
}

bool read_rels(ZipArchive& zip, std::string_view part, Rels* out, std::string* error, std::uint64_t cap) {
  const std::string folder = folder_of(part);
  const std::string rels_part = folder + "_rels/" + std::string(part.substr(folder.size())) + ".rels";
  if (zip.find(rels_part) == nullptr) return true;
  auto bytes = zip.read(rels_part, error, cap);
  pugi::xml_document d;
  if (!bytes || !xml::parse(std::move(*bytes), rels_part, &d, error)) return false;
  for (pugi::xml_node r : xml::child(d, "Relationships").children()) {
    if (!xml::is(r, "Relationship")) continue;
    const std::string_view type = xml::attr(r, "Type");
    const std::string_view target = xml::attr(r, "Target");
    Rel rel;
    rel.external = xml::attr(r, "TargetMode") == "External";
    // A target that climbs out of the package resolves to nothing: it is never read.
    rel.target = rel.external ? std::string(target) : resolve_part(folder, target);
    const auto slash = type.rfind('/');
    rel.type = std::string(slash == std::string_view::npos ? type : type.substr(slash + 1));
    out->emplace(std::string(xml::attr(r, "Id")), std::move(rel));
  }
  return true;
}

Rels rels_or_none(ZipArchive& zip, std::string_view part, std::uint64_t cap) {
  Rels out;
  std::string ignored;
  read_rels(zip, part, &out, &ignored, cap);
  return out;
}

}  // namespace mcpread::readers::package
