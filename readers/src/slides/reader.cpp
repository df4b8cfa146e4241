#include "mcpread/readers/utf8.hpp"
#include "package/open.hpp"
#include "package/part_cache.hpp"
#include "slides/readers.hpp"

#include <algorithm>
#include <variant>

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

package::Expected expected(Format f) { return {article(f), {"presentation", "text", "PowerPoint .ppt", article(f)}}; }

// What a read deck holds, roughly: the bytes the cache counts it as.
std::size_t approx_bytes(const Deck& deck) {
  std::size_t n = sizeof deck + deck.preamble.size() + deck.sections.size() * sizeof(Section);
  for (const auto& s : deck.sections) {
    n += s.title.size() + s.text.size() + s.notes.size();
    for (const auto& image : s.images) n += sizeof image + image.size();
  }
  return n;
}

// The package's cache key (empty for bytes in memory): a model reads a deck or a book section by
// section, and each call would otherwise read all of its parts again.
ReadOutcome read_opened(std::variant<package::Opened, ReadOutcome> opening, Format format, const Options& options,
                        const CancelToken& cancel) {
  if (auto* refused = std::get_if<ReadOutcome>(&opening)) return std::move(*refused);
  auto& opened = std::get<package::Opened>(opening);
  const std::string_view name = format == Format::pptx ? "pptx" : format == Format::odp ? "odp" : "epub";
  auto& cache = package::PartCache::instance();
  std::shared_ptr<const Deck> deck = opened.cache_key.empty() ? nullptr : cache.get_value<Deck>(opened.cache_key, name);
  if (deck == nullptr) {
    auto read = std::make_shared<Deck>();
    std::string error;
    const bool ok = format == Format::pptx  ? read_pptx(*opened.zip, read.get(), &error)
                    : format == Format::odp ? read_odp(*opened.zip, read.get(), &error)
                                            : read_epub(*opened.zip, read.get(), &error);
    if (cancel.cancelled()) return ReadOutcome::stopped();
    if (!ok) return ReadOutcome::error(opened.cannot + error + ".", std::move(opened.meta));
    if (!opened.cache_key.empty()) cache.put_value(opened.cache_key, name, read, approx_bytes(*read));
    deck = std::move(read);
  }
  return render(*deck, *opened.zip, opened.path, options, cancel, std::move(opened.meta));
}

}  // namespace

ReadOutcome read_bytes(std::string_view bytes, std::string_view name, Format format, const Options& options,
                       const CancelToken& cancel) {
  return read_opened(package::open(bytes, name, options.zip, expected(format)), format, options, cancel);
}

ReadOutcome read_file(const OpenedFile& file, Format format, const Options& options, const CancelToken& cancel) {
  return read_opened(package::open(file, options.zip, expected(format)), format, options, cancel);
}

}  // namespace mcpread::readers::sections
