#include "rtf/rtf_reader.hpp"

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
  const office::PartReader pictures = office::held_parts(parsed.pictures, "its data is missing");
  return office::render_document(parsed.doc, pictures, "RTF document", path, options, cancel, std::move(meta));
}

ReadOutcome read_rtf_file(const OpenedFile& file, const office::OfficeOptions& options, const CancelToken& cancel) {
  auto bytes = read_whole_file(file, kMaxFileBytes, "RTF documents read as documents",
                               " " + options.wording.say({.as = FileKind::text}, HintForm::Call) + " to read its source.");
  if (auto* refused = std::get_if<ReadOutcome>(&bytes)) return std::move(*refused);
  return read_rtf_bytes(std::get<std::string>(bytes), utf8::sanitized(file.path.string()), options, cancel);
}

}  // namespace mcpread::readers::rtf
