#include "rtf/rtf_reader.hpp"

#include "file_io.hpp"
#include "human_size.hpp"
#include "mcpread/readers/utf8.hpp"
#include "rtf/rtf_document.hpp"

#include <cerrno>
#include <cstring>

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
  const std::string path = utf8::sanitized(file.path.string());
  const auto size = static_cast<std::uint64_t>(file.st.st_size);
  if (size > kMaxFileBytes)
    return ReadOutcome::error(path + " is " + human_size(size) + ", over the " + human_size(kMaxFileBytes) +
                                  " limit for RTF documents read as documents. " +
                                  options.wording.say({.as = FileKind::text}, HintForm::Call) + " to read its source.",
                              {{"path", path}, {"size", size}});
  auto bytes = file_io::read_whole(file.fd.get(), size, kMaxFileBytes);
  if (!bytes)
    return ReadOutcome::error(errno == EFBIG ? path + " grew past the " + human_size(kMaxFileBytes) + " limit for RTF documents while being read."
                                             : "Cannot read " + path + ": " + utf8::sanitized(std::strerror(errno)) + ".",
                              {{"path", path}, {"size", size}});
  return read_rtf_bytes(*bytes, path, options, cancel);
}

}  // namespace mcpread::readers::rtf
