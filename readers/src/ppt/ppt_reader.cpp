#include "ppt/ppt_reader.hpp"

#include "file_io.hpp"
#include "human_size.hpp"
#include "mcpread/readers/utf8.hpp"
#include "ole2/ole2_file.hpp"
#include "package/part_cache.hpp"
#include "ppt/ppt_deck.hpp"
#include "whole_file.hpp"

#include <memory>

namespace mcpread::readers::ppt {

namespace {

constexpr std::string_view kCacheName = "ppt";

std::size_t approx_bytes(const sections::Deck& deck) {
  std::size_t n = sizeof deck + deck.sections.size() * sizeof(sections::Section);
  for (const auto& s : deck.sections) n += s.title.size() + s.text.size() + s.notes.size();
  return n;
}

// The deck of `bytes`, or a refusal's sentence.
std::shared_ptr<const sections::Deck> read_deck(std::string_view bytes, std::string* error) {
  const auto file = ole2::CompoundFile::open(bytes, error);
  if (file == nullptr) return nullptr;
  std::string why;
  const std::optional<std::string> document = file->stream("PowerPoint Document", kMaxFileBytes, &why);
  if (!document) {
    *error = why.empty() ? "it is an OLE2 file without a PowerPoint document in it (no \"PowerPoint Document\" "
                           "stream; another Office format named .ppt?)"
                         : why;
    return nullptr;
  }
  const std::optional<std::string> user = file->stream("Current User", 1u << 20, &why);
  auto deck = std::make_shared<sections::Deck>();
  if (!read_ppt(*document, user.value_or(std::string()), deck.get(), error)) return nullptr;
  return deck;
}

// The answer for the file's `bytes` (unread when its deck is cached under `cache_key`).
ReadOutcome answer(std::string_view bytes, std::uint64_t size, const std::string& path, const std::string& cache_key,
                   const sections::Options& options, const CancelToken& cancel) {
  nlohmann::json meta = {{"path", path}, {"size", size}};
  auto& cache = package::PartCache::instance();
  std::shared_ptr<const sections::Deck> deck =
      cache_key.empty() ? nullptr : cache.get_value<sections::Deck>(cache_key, kCacheName);
  if (deck == nullptr) {
    std::string error;
    deck = read_deck(bytes, &error);
    if (deck == nullptr)
      return ReadOutcome::error("Cannot read " + path + " as a PowerPoint 97-2003 presentation: " + error + ".",
                                std::move(meta));
    if (!cache_key.empty()) cache.put_value(cache_key, kCacheName, deck, approx_bytes(*deck));
  }
  if (cancel.cancelled()) return ReadOutcome::stopped();
  // The slides' pictures are not read (the Pictures stream's BLIPs): no section names an image.
  const office::PartReader no_pictures = [](const std::string&, std::string* why, std::uint64_t) {
    *why = "pictures of .ppt files are not read";
    return std::optional<std::string>();
  };
  return sections::render(*deck, no_pictures, path, options, cancel, std::move(meta));
}

}  // namespace

ReadOutcome read_ppt_bytes(std::string_view bytes, std::string_view name, const sections::Options& options,
                           const CancelToken& cancel) {
  return answer(bytes, bytes.size(), utf8::sanitized(name), {}, options, cancel);
}

ReadOutcome read_ppt_file(const OpenedFile& file, const sections::Options& options, const CancelToken& cancel) {
  const std::string path = utf8::sanitized(file.path.string());
  const auto size = static_cast<std::uint64_t>(file.st.st_size);
  // A deck read before (the same file unchanged) is not read again: a model reads it a few slides
  // a call.
  const std::string key = file_io::identity_key(file);
  if (!key.empty() && size <= kMaxFileBytes &&
      package::PartCache::instance().get_value<sections::Deck>(key, kCacheName) != nullptr)
    return answer({}, size, path, key, options, cancel);
  auto bytes = read_whole_file(file, kMaxFileBytes, "PowerPoint 97-2003 presentations");
  if (auto* refused = std::get_if<ReadOutcome>(&bytes)) return std::move(*refused);
  return answer(std::get<std::string>(bytes), size, path, key, options, cancel);
}

}  // namespace mcpread::readers::ppt
