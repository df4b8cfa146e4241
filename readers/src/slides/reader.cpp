#include "mcpread/readers/utf8.hpp"
#include "office/zip_head.hpp"
#include "slides/readers.hpp"

#include <algorithm>

namespace mcpread::readers::sections {
namespace {

std::string_view article(Format f) {
  switch (f) {
    case Format::pptx: return "a PowerPoint presentation";
    case Format::odp: return "an OpenDocument presentation";
    case Format::epub: return "an EPUB book";
  }
  return "a document";
}

zip_head::CompoundFileWords compound_words(Format f) { return {"presentation", "text", "PowerPoint .ppt", article(f)}; }

ReadOutcome read_archive(std::unique_ptr<office::ZipArchive> zip, const std::string& zip_error, const std::string& path,
                         Format format, const Options& options, const CancelToken& cancel, nlohmann::json meta) {
  const std::string cannot = path + " cannot be read as " + std::string(article(format)) + ": ";
  if (zip == nullptr) return ReadOutcome::error(cannot + zip_error + ".", std::move(meta));
  Deck deck;
  std::string error;
  const bool ok = format == Format::pptx  ? read_pptx(*zip, &deck, &error)
                  : format == Format::odp ? read_odp(*zip, &deck, &error)
                                          : read_epub(*zip, &deck, &error);
  if (cancel.cancelled()) return ReadOutcome::stopped();
  if (!ok) return ReadOutcome::error(cannot + error + ".", std::move(meta));
  return render(deck, *zip, path, options, cancel, std::move(meta));
}

}  // namespace

ReadOutcome read_bytes(std::string_view bytes, std::string_view name, Format format, const Options& options,
                       const CancelToken& cancel) {
  const std::string path = utf8::sanitized(name);
  nlohmann::json meta = {{"path", path}, {"size", bytes.size()}};
  if (zip_head::is_compound_file(bytes))
    return ReadOutcome::error(zip_head::compound_file_message(path, bytes, compound_words(format)), std::move(meta));
  std::string error;
  auto zip = office::ZipArchive::open_memory(bytes, options.zip, &error);
  return read_archive(std::move(zip), error, path, format, options, cancel, std::move(meta));
}

ReadOutcome read_file(const OpenedFile& file, Format format, const Options& options, const CancelToken& cancel) {
  const std::string path = utf8::sanitized(file.path.string());
  const auto size = static_cast<std::uint64_t>(file.st.st_size);
  nlohmann::json meta = {{"path", path}, {"size", size}};
  if (const auto head = zip_head::compound_file_head(file.fd.get(), size))
    return ReadOutcome::error(zip_head::compound_file_message(path, *head, compound_words(format)), std::move(meta));
  std::string error;
  auto zip = office::ZipArchive::open_fd(file.fd.get(), options.zip, &error);
  return read_archive(std::move(zip), error, path, format, options, cancel, std::move(meta));
}

}  // namespace mcpread::readers::sections
