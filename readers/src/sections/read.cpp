#include "sections/read.hpp"

#include "package/part_cache.hpp"
#include "resource_contents.hpp"

#include <algorithm>
#include <variant>

namespace mcpread::readers::sections {
namespace {

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
ReadOutcome read_opened(std::variant<package::Opened, ReadOutcome> opening, const DeckFormat& format,
                        const Options& options, const CancelToken& cancel) {
  if (auto* refused = std::get_if<ReadOutcome>(&opening)) return std::move(*refused);
  auto& opened = std::get<package::Opened>(opening);
  auto& cache = package::PartCache::instance();
  std::shared_ptr<const Deck> deck =
      opened.cache_key.empty() ? nullptr : cache.get_value<Deck>(opened.cache_key, format.name);
  if (deck == nullptr) {
    auto read = std::make_shared<Deck>();
    std::string error;
    const bool ok = format.read(*opened.zip, read.get(), &error);
    if (cancel.cancelled()) return ReadOutcome::stopped();
    if (!ok) return ReadOutcome::error(opened.cannot + error + ".", std::move(opened.meta));
    if (!opened.cache_key.empty()) cache.put_value(opened.cache_key, format.name, read, approx_bytes(*read));
    deck = std::move(read);
  }
  return render(*deck, *opened.zip, opened.path, options, cancel, std::move(opened.meta));
}

Options options_for(const ReadLimits& limits, std::size_t cap) {
  Options options;
  options.max_output_bytes = cap;
  options.image = limits.image;
  options.zip = package::zip_limits(limits);
  return options;
}

}  // namespace

ReadOutcome read_bytes(std::string_view bytes, std::string_view name, const DeckFormat& format, const Options& options,
                       const CancelToken& cancel) {
  return read_opened(package::open(bytes, name, options.zip, format.expected), format, options, cancel);
}

ReadOutcome read_file(const OpenedFile& file, const DeckFormat& format, const Options& options,
                      const CancelToken& cancel) {
  return read_opened(package::open(file, options.zip, format.expected), format, options, cancel);
}

Options call_options(const ReaderCall& call, std::size_t per_call) {
  Options options = options_for(call.limits, media_text_cap(call.limits));
  options.pages = call.request.pages;
  if (call.request.offset) options.offset = *call.request.offset;
  options.max_sections = per_call;
  // `limit` counts slides or chapters, as it counts paragraphs in a Word document.
  if (call.request.limit)
    options.max_sections = static_cast<std::size_t>(std::min<std::uint64_t>(
        std::max<std::uint64_t>(*call.request.limit, 1), options.max_sections != 0 ? options.max_sections : UINT32_MAX));
  if (call.kind == FileKind::text) options.max_images = 0;
  options.wording = call.request.wording;
  return options;
}

Options resource_options(const ResourceCall& call) {
  Options options = options_for(call.limits, call.limits.text.max_output_bytes);
  options.max_images = 0;
  options.wording = call.wording;
  return options;
}

ReadOutcome read_call(const ReaderCall& call, const DeckFormat& format, std::size_t per_call) {
  return read_file(call.file, format, call_options(call, per_call), call.cancel);
}

ResourceReadResult read_as_resource(const ResourceCall& call, const DeckFormat& format) {
  return resource_from_outcome(read_file(call.file, format, resource_options(call), call.cancel), true);
}

}  // namespace mcpread::readers::sections
