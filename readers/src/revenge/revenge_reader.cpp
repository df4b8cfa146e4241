#include "revenge/revenge_reader.hpp"

#include "mcpread/readers/utf8.hpp"
#include "revenge/revenge_document.hpp"
#include "whole_file.hpp"

namespace mcpread::readers::revenge {

ReadOutcome read_revenge_bytes(std::string_view bytes, std::string_view name, const office::OfficeOptions& options,
                               const CancelToken& cancel) {
  const std::string path = utf8::sanitized(name);
  nlohmann::json meta = {{"path", path}, {"size", bytes.size()}};
  RevengeDocument parsed;
  std::string error;
  // An empty file is said to be one, not put through seven importers that recognise nothing.
  if (bytes.empty()) error = "the file is empty (0 bytes)";
  if (!error.empty() || !read_revenge(bytes, &parsed, &error, cancel))
    return ReadOutcome::error("Cannot read " + path + " as a word-processor document: " + error + ".", std::move(meta));
  if (cancel.cancelled()) return ReadOutcome::stopped();
  meta["format"] = parsed.format;
  meta["pictures_not_shown"] = parsed.pictures_not_shown;
  if (parsed.text_cut) meta["text_cut"] = true;
  const office::PartReader pictures = office::held_parts(parsed.pictures, "its data is not valid base64");
  ReadOutcome outcome =
      office::render_document(parsed.doc, pictures, parsed.format, path, options, cancel, std::move(meta));
  std::string note;
  if (parsed.pictures_not_shown > 0)
    note += "\n[" + std::to_string(parsed.pictures_not_shown) +
            (parsed.pictures_not_shown == 1 ? " picture is" : " pictures are") +
            " not shown: vector pictures (WMF, PICT, WordPerfect graphics) and very large ones are not read.]";
  if (parsed.text_cut) note += "\n[The document's text was cut at 32 MiB: the rest is not read.]";
  if (!outcome.is_error && !note.empty() && !outcome.blocks.empty())
    if (auto* last = std::get_if<TextBlock>(&outcome.blocks.back())) last->text += note;
  return outcome;
}

ReadOutcome read_revenge_file(const OpenedFile& file, const office::OfficeOptions& options, const CancelToken& cancel) {
  auto bytes = read_whole_file(file, kMaxFileBytes, "word-processor documents");
  if (auto* refused = std::get_if<ReadOutcome>(&bytes)) return std::move(*refused);
  return read_revenge_bytes(std::get<std::string>(bytes), utf8::sanitized(file.path.string()), options, cancel);
}

}  // namespace mcpread::readers::revenge
