#include "doc/doc_reader.hpp"

#include "doc/doc_document.hpp"
#include "human_size.hpp"
#include "mcpread/readers/utf8.hpp"
#include "whole_file.hpp"


namespace mcpread::readers::doc {

ReadOutcome read_doc_bytes(std::string_view bytes, std::string_view name, const office::OfficeOptions& options,
                           const CancelToken& cancel) {
  const std::string path = utf8::sanitized(name);
  nlohmann::json meta = {{"path", path}, {"size", bytes.size()}};
  DocDocument parsed;
  std::string error;
  if (!read_doc(bytes, &parsed, &error, cancel))
    return ReadOutcome::error("Cannot read " + path + " as a Word 97-2003 document: " + error + ".", std::move(meta));
  if (cancel.cancelled()) return ReadOutcome::stopped();
  meta["format"] = parsed.version;
  meta["pictures_not_shown"] = parsed.pictures;
  if (parsed.text_cut) meta["text_cut_at_bytes"] = kMaxTextBytes;
  const office::PartReader no_parts = [](const std::string&, std::string* why, std::uint64_t) {
    *why = "pictures of Word 97-2003 documents are not read";
    return std::optional<std::string>();
  };
  ReadOutcome outcome =
      office::render_document(parsed.doc, no_parts, "Word document", path, options, cancel, std::move(meta));
  std::string note;
  if (parsed.pictures > 0)
    note += "\n[" + std::to_string(parsed.pictures) + (parsed.pictures == 1 ? " picture is" : " pictures are") +
            " not shown: pictures of Word 97-2003 documents are not read.]";
  if (parsed.text_cut)
    note += "\n[The document's text was cut at " + human_size(kMaxTextBytes) + ": the rest is not read.]";
  if (!outcome.is_error && !note.empty() && !outcome.blocks.empty())
    if (auto* last = std::get_if<TextBlock>(&outcome.blocks.back())) last->text += note;
  return outcome;
}

ReadOutcome read_doc_file(const OpenedFile& file, const office::OfficeOptions& options, const CancelToken& cancel) {
  auto bytes = read_whole_file(file, kMaxFileBytes, "Word 97-2003 documents");
  if (auto* refused = std::get_if<ReadOutcome>(&bytes)) return std::move(*refused);
  return read_doc_bytes(std::get<std::string>(bytes), utf8::sanitized(file.path.string()), options, cancel);
}

}  // namespace mcpread::readers::doc
