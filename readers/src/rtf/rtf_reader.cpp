#include "rtf/rtf_reader.hpp"

#include "human_size.hpp"
#include "mcpread/readers/utf8.hpp"
#include "rtf/rtf_document.hpp"
#include "whole_file.hpp"


namespace mcpread::readers::rtf {

ReadOutcome read_rtf_bytes(std::string_view bytes, std::string_view name, const office::OfficeOptions& options,
                           const CancelToken& cancel) {
  const std::string path = utf8::sanitized(name);
  nlohmann::json meta = {{"path", path}, {"size", bytes.size()}};
  RtfDocument parsed;
  std::string error;
  if (!read_rtf(bytes, &parsed, &error))
    return ReadOutcome::error("Cannot read " + path + " as an RTF document: " + error + ".", std::move(meta));
  if (cancel.cancelled()) return ReadOutcome::stopped();
  meta["pictures_not_shown"] = parsed.pictures_not_kept;
  const office::PartReader pictures = [&parsed](const std::string& part, std::string* why, std::uint64_t cap) {
    for (const Picture& p : parsed.pictures) {
      if (p.name != part) continue;
      if (cap != 0 && p.bytes.size() > cap) {
        *why = "it is " + human_size(p.bytes.size()) + ", over the " + human_size(cap) + " limit for images";
        return std::optional<std::string>();
      }
      return std::optional<std::string>(p.bytes);
    }
    *why = "its data is missing";
    return std::optional<std::string>();
  };
  return office::render_document(parsed.doc, pictures, "RTF document", path, options, cancel, std::move(meta));
}

ReadOutcome read_rtf_file(const OpenedFile& file, const office::OfficeOptions& options, const CancelToken& cancel) {
  auto bytes = read_whole_file(file, kMaxFileBytes, "RTF documents read as documents",
                               " " + options.wording.say({.as = FileKind::text}, HintForm::Call) + " to read its source.");
  if (auto* refused = std::get_if<ReadOutcome>(&bytes)) return std::move(*refused);
  return read_rtf_bytes(std::get<std::string>(bytes), utf8::sanitized(file.path.string()), options, cancel);
}

}  // namespace mcpread::readers::rtf
