#include "revenge/revenge_decks.hpp"

#include "file_io.hpp"
#include "mcpread/readers/utf8.hpp"
#include "package/part_cache.hpp"
#include "revenge/revenge_document.hpp"
#if !defined(_WIN32)
#include "child_json.hpp"
#include "revenge/revenge_api.hpp"
#endif
#include "revenge/revenge_reader.hpp"
#include "whole_file.hpp"

#include <nlohmann/json.hpp>

#include <memory>
#include <utility>

namespace mcpread::readers::revenge {

namespace {

constexpr std::string_view kCacheName = "revenge_deck";

#if !defined(_WIN32)
// Said after a crash or a malformed answer of a deck's parse.
constexpr std::string_view kDeckAdvice =
    ": the file is damaged or uses what the importer cannot read; open it in LibreOffice and save it as ODG or ODP";

// A page's text as the sections engine shows it: valid UTF-8, no spaces ending a line, no more than
// one blank line in a row, none at either end.
std::string tidy(std::string_view text) {
  std::string out;
  std::size_t blank_lines = 0;
  for (std::size_t at = 0; at <= text.size();) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(at, end - at);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) line.remove_suffix(1);
    at = end + 1;
    if (line.empty()) {
      ++blank_lines;
      continue;
    }
    if (!out.empty()) out += blank_lines > 0 ? "\n\n" : "\n";
    blank_lines = 0;
    out += line;
  }
  return utf8::sanitized(out);
}
#endif

std::size_t approx_bytes(const ImportedDeck& d) {
  std::size_t n = sizeof d + d.deck.sections.size() * sizeof(sections::Section);
  for (const auto& s : d.deck.sections) n += s.title.size() + s.text.size() + s.notes.size();
  for (const auto& p : d.pictures) n += sizeof p + p.name.size() + p.bytes.size();
  return n;
}

// The deck of `bytes`, or a refusal's sentence.
std::shared_ptr<const ImportedDeck> import_deck(std::string_view bytes, std::string* error, const CancelToken& cancel) {
  // An empty file is said to be one, not put through eight importers that recognise nothing.
  if (bytes.empty()) return *error = "the file is empty (0 bytes)", nullptr;
#if defined(_WIN32)
  (void)cancel;
  *error = "the Windows build of mcp-read does not include librevenge's importers, which read it: open it in "
           "LibreOffice and save it as PDF or ODP, or use mcp-read on Linux";
  return nullptr;
#else
  std::string answer;
  if (!run_importer(bytes, &answer, error, cancel, &RevengeApi::read_deck, kDeckAdvice)) return nullptr;
  auto deck = std::make_shared<ImportedDeck>();
  if (!deck_from_plugin_json(answer, deck.get()))
    return *error = "the importer's parse ended with a malformed answer" + std::string(kDeckAdvice), nullptr;
  return deck;
#endif
}

// The answer for the file's `bytes` (unread when its deck is cached under `cache_key`).
ReadOutcome answer(std::string_view bytes, std::uint64_t size, const std::string& path, const std::string& cache_key,
                   std::string_view what, const sections::Options& options, const CancelToken& cancel) {
  nlohmann::json meta = {{"path", path}, {"size", size}};
  auto& cache = package::PartCache::instance();
  std::shared_ptr<const ImportedDeck> deck =
      cache_key.empty() ? nullptr : cache.get_value<ImportedDeck>(cache_key, kCacheName);
  if (deck == nullptr) {
    std::string error;
    deck = import_deck(bytes, &error, cancel);
    if (cancel.cancelled()) return ReadOutcome::stopped();
    if (deck == nullptr) return ReadOutcome::error("Cannot read " + path + " as " + std::string(what) + ": " + error + ".", std::move(meta));
    if (!cache_key.empty()) cache.put_value(cache_key, kCacheName, deck, approx_bytes(*deck));
  }
  meta["format"] = deck->deck.noun;
  if (deck->pictures_not_shown > 0) meta["pictures_not_shown"] = deck->pictures_not_shown;
  if (deck->text_cut) meta["text_cut"] = true;
  const office::PartReader pictures = office::held_parts(deck->pictures, "its data is not valid base64");
  ReadOutcome outcome = sections::render(deck->deck, pictures, path, options, cancel, std::move(meta));
  std::string note;
  if (deck->pictures_not_shown > 0)
    note += "\n[" + std::to_string(deck->pictures_not_shown) +
            (deck->pictures_not_shown == 1 ? " picture is" : " pictures are") +
            " not shown: vector pictures (WMF, EMF) and very large ones are not read.]";
  if (deck->text_cut) note += "\n[The text was cut at 32 MiB or 10,000 " + deck->deck.unit + "s: the rest is not read.]";
  if (!outcome.is_error && !note.empty() && !outcome.blocks.empty())
    if (auto* last = std::get_if<TextBlock>(&outcome.blocks.back())) last->text += note;
  return outcome;
}

}  // namespace

bool deck_from_plugin_json(std::string_view json, ImportedDeck* out) {
#if defined(_WIN32)
  (void)json;
  (void)out;
  return false;
#else
  const nlohmann::json j = nlohmann::json::parse(json, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return false;
  try {
    ImportedDeck d;
    d.deck.noun = utf8::sanitized(j.at("format").get<std::string>());
    d.deck.unit = j.at("unit").get<std::string>() == "slide" ? "slide" : "page";
    const std::vector<std::string> names = pictures_from_plugin(j.at("images"), d.pictures);
    const nlohmann::json& pages = j.at("pages");
    if (!pages.is_array() || pages.size() > sections::kMaxSections) return false;
    for (const auto& p : pages) {
      sections::Section s;
      s.title = sections::one_line(utf8::sanitized(p.at("name").get<std::string>()));
      s.text = tidy(p.at("text").get<std::string>());
      s.notes = sections::one_line(utf8::sanitized(p.at("notes").get<std::string>()));
      for (const auto& i : p.at("images")) {
        const auto image = child_json::whole<std::size_t>(i);
        if (image < names.size()) s.images.push_back(names[image]);
      }
      d.deck.sections.push_back(std::move(s));
    }
    d.pictures_not_shown = child_json::whole<std::size_t>(j.at("pictures_not_shown"));
    d.text_cut = j.at("text_cut").get<bool>();
    *out = std::move(d);
    return true;
  } catch (const nlohmann::json::exception&) {
    return false;
  }
#endif
}

ReadOutcome read_revenge_deck_bytes(std::string_view bytes, std::string_view name, std::string_view what,
                                    const sections::Options& options, const CancelToken& cancel) {
  return answer(bytes, bytes.size(), utf8::sanitized(name), {}, what, options, cancel);
}

ReadOutcome read_revenge_deck_file(const OpenedFile& file, std::string_view what, const sections::Options& options,
                                   const CancelToken& cancel) {
  const std::string path = utf8::sanitized(file.path.string());
  const auto size = static_cast<std::uint64_t>(file.st.st_size);
  // A deck read before (the same file unchanged) is not parsed again: a model reads it a few pages
  // a call.
  const std::string key = file_io::identity_key(file);
  if (!key.empty() && size <= kMaxFileBytes &&
      package::PartCache::instance().get_value<ImportedDeck>(key, kCacheName) != nullptr)
    return answer({}, size, path, key, what, options, cancel);
  auto bytes = read_whole_file(file, kMaxFileBytes, "drawings and presentations");
  if (auto* refused = std::get_if<ReadOutcome>(&bytes)) return std::move(*refused);
  return answer(std::get<std::string>(bytes), size, path, key, what, options, cancel);
}

}  // namespace mcpread::readers::revenge
