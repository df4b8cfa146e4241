#include "mcpread/readers/utf8.hpp"
#include "package/part_cache.hpp"
#include "package/zip_head.hpp"
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

// What a read deck holds, roughly: the bytes the cache counts it as.
std::size_t approx_bytes(const Deck& deck) {
  std::size_t n = sizeof deck + deck.preamble.size() + deck.sections.size() * sizeof(Section);
  for (const auto& s : deck.sections) {
    n += s.title.size() + s.text.size() + s.notes.size();
    for (const auto& image : s.images) n += sizeof image + image.size();
  }
  return n;
}

// `cache_key` (PartCache::key_of the file; empty for bytes in memory): a model reads a deck or a
// book section by section, and each call would otherwise read all of its parts again.
ReadOutcome read_archive(std::unique_ptr<package::ZipArchive> zip, const std::string& zip_error, const std::string& path,
                         Format format, const Options& options, const CancelToken& cancel, nlohmann::json meta,
                         const std::string& cache_key = {}) {
  const std::string cannot = path + " cannot be read as " + std::string(article(format)) + ": ";
  if (zip == nullptr) return ReadOutcome::error(cannot + zip_error + ".", std::move(meta));
  const std::string_view name = format == Format::pptx ? "pptx" : format == Format::odp ? "odp" : "epub";
  auto& cache = package::PartCache::instance();
  std::shared_ptr<const Deck> deck = cache_key.empty() ? nullptr : cache.get_value<Deck>(cache_key, name);
  if (deck == nullptr) {
    auto read = std::make_shared<Deck>();
    std::string error;
    const bool ok = format == Format::pptx  ? read_pptx(*zip, read.get(), &error)
                    : format == Format::odp ? read_odp(*zip, read.get(), &error)
                                            : read_epub(*zip, read.get(), &error);
    if (cancel.cancelled()) return ReadOutcome::stopped();
    if (!ok) return ReadOutcome::error(cannot + error + ".", std::move(meta));
    if (!cache_key.empty()) cache.put_value(cache_key, name, read, approx_bytes(*read));
    deck = std::move(read);
  }
  return render(*deck, *zip, path, options, cancel, std::move(meta));
}

}  // namespace

ReadOutcome read_bytes(std::string_view bytes, std::string_view name, Format format, const Options& options,
                       const CancelToken& cancel) {
  const std::string path = utf8::sanitized(name);
  nlohmann::json meta = {{"path", path}, {"size", bytes.size()}};
  if (zip_head::is_compound_file(bytes))
    return ReadOutcome::error(zip_head::compound_file_message(path, bytes, compound_words(format)), std::move(meta));
  std::string error;
  auto zip = package::ZipArchive::open_memory(bytes, options.zip, &error);
  return read_archive(std::move(zip), error, path, format, options, cancel, std::move(meta));
}

ReadOutcome read_file(const OpenedFile& file, Format format, const Options& options, const CancelToken& cancel) {
  const std::string path = utf8::sanitized(file.path.string());
  const auto size = static_cast<std::uint64_t>(file.st.st_size);
  nlohmann::json meta = {{"path", path}, {"size", size}};
  if (const auto head = zip_head::compound_file_head(file.fd.get(), size))
    return ReadOutcome::error(zip_head::compound_file_message(path, *head, compound_words(format)), std::move(meta));
  std::string error;
  auto zip = package::ZipArchive::open_fd(file.fd.get(), options.zip, &error);
  return read_archive(std::move(zip), error, path, format, options, cancel, std::move(meta),
                      package::PartCache::key_of(file.st));
}

}  // namespace mcpread::readers::sections
