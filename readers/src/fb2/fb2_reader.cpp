#include "fb2/fb2_reader.hpp"

#include "fb2/fb2_document.hpp"
#include "human_size.hpp"
#include "mcpread/readers/base64.hpp"
#include "mcpread/readers/charset.hpp"
#include "mcpread/readers/utf8.hpp"
#include "whole_file.hpp"

#include <algorithm>
#include <span>

namespace mcpread::readers::fb2 {

namespace {

// The book's XML as UTF-8: FictionBook files are often windows-1251, said in their XML
// declaration, which detection reads first.
bool to_utf8(std::string_view bytes, std::string* xml, std::string* charset, std::string* error) {
  const auto sample = std::span(reinterpret_cast<const unsigned char*>(bytes.data()),
                                std::min<std::size_t>(bytes.size(), 64 * 1024));
  const DetectedCharset cs = detect_charset(sample);
  *charset = cs.name;
  const std::string_view body = bytes.substr(std::min(cs.bom_bytes, bytes.size()));
  if (cs.name == "UTF-8") {
    *xml = utf8::sanitized(body);
    return true;
  }
  Utf8Converter converter(cs.name);
  if (!converter.ok()) {
    *error = "cannot decode it from " + describe_charset(cs) + ": " + converter.error();
    return false;
  }
  converter.convert(body, *xml, true);
  return true;
}

}  // namespace

ReadOutcome read_fb2_bytes(std::string_view bytes, std::string_view name, const office::OfficeOptions& options,
                           const CancelToken& cancel) {
  const std::string path = utf8::sanitized(name);
  nlohmann::json meta = {{"path", path}, {"size", bytes.size()}};
  std::string xml, charset, error;
  Fb2Book book;
  if (!to_utf8(bytes, &xml, &charset, &error) || !read_fb2(xml, &book, &error))
    return ReadOutcome::error("Cannot read " + path + " as a FictionBook e-book: " + error + ". " +
                                  options.wording.say({.as = FileKind::text}, HintForm::Call) + " to read its XML.",
                              std::move(meta));
  if (cancel.cancelled()) return ReadOutcome::stopped();
  meta["charset"] = charset;
  if (!book.title.empty()) meta["title"] = book.title;
  if (book.images_missing != 0) meta["images_missing"] = book.images_missing;
  const office::PartReader images = [&book](const std::string& id, std::string* why, std::uint64_t cap) {
    const auto found = book.binaries.find(id);
    if (found == book.binaries.end()) {
      *why = "the book has no binary with that id";
      return std::optional<std::string>();
    }
    // Clearly over the cap (even were half its text line breaks) is refused before decoding.
    if (cap != 0 && found->second.base64.size() / 2 > base64_size(cap)) {
      *why = "its data is over the " + human_size(cap) + " limit for images";
      return std::optional<std::string>();
    }
    std::optional<std::string> data = base64_decode(found->second.base64);
    if (!data) {
      *why = "its base64 data is damaged";
    } else if (cap != 0 && data->size() > cap) {
      *why = "it is " + human_size(data->size()) + ", over the " + human_size(cap) + " limit for images";
      data.reset();
    }
    return data;
  };
  return office::render_document(book.doc, images, "FictionBook e-book", path, options, cancel, std::move(meta));
}

ReadOutcome read_fb2_file(const OpenedFile& file, const office::OfficeOptions& options, const CancelToken& cancel) {
  auto bytes = read_whole_file(file, kMaxFileBytes, "FictionBook e-books read as books",
                               " " + options.wording.say({.as = FileKind::text}, HintForm::Call) + " to read its XML.");
  if (auto* refused = std::get_if<ReadOutcome>(&bytes)) return std::move(*refused);
  return read_fb2_bytes(std::get<std::string>(bytes), utf8::sanitized(file.path.string()), options, cancel);
}

}  // namespace mcpread::readers::fb2
