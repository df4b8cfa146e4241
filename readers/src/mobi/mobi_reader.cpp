#include "mobi/mobi_reader.hpp"

#include "html/html_text.hpp"
#include "human_size.hpp"
#include "mcpread/readers/utf8.hpp"
#include "mobi/mobi_book.hpp"
#include "package/part_cache.hpp"
#include "resource_contents.hpp"
#include "sections/read.hpp"
#include "whole_file.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <memory>

namespace mcpread::readers::mobi {
namespace {

// What a read book keeps between calls: its chapters and its images by name.
struct Chapters {
  sections::Deck deck;
  std::map<std::string, std::string> images;
  std::size_t images_left_out = 0;
};

// The markup cut at each <mbp:pagebreak>: MOBI 6 books (and KF8 files converted from them) mark
// their chapters so, in one long flow.
std::vector<std::string_view> at_page_breaks(std::string_view html) {
  std::vector<std::string_view> pieces;
  constexpr std::string_view kBreak = "<mbp:pagebreak";
  std::size_t start = 0;
  for (std::size_t at = 0; at + kBreak.size() <= html.size(); ++at) {
    if (html[at] != '<') continue;
    bool same = true;
    for (std::size_t i = 1; i < kBreak.size() && same; ++i)
      same = std::tolower(static_cast<unsigned char>(html[at + i])) == kBreak[i];
    if (!same) continue;
    pieces.push_back(html.substr(start, at - start));
    const std::size_t end = html.find('>', at);
    start = at = end == std::string_view::npos ? html.size() : end + 1;
  }
  pieces.push_back(html.substr(start));
  return pieces;
}

// An <img src> as the resource name it links to: libmobi writes "resource00012.jpg" for the
// recindex of a MOBI 6 book and for the kindle:embed links of a KF8 one.
std::string image_name(std::string_view src) {
  src = src.substr(0, src.find_first_of("?#"));
  const std::size_t slash = src.rfind('/');
  return std::string(slash == std::string_view::npos ? src : src.substr(slash + 1));
}

bool to_chapters(MobiBook&& book, Chapters* out, std::string* error, const CancelToken& cancel) {
  sections::Deck& deck = out->deck;
  deck.noun = book.kf8 ? "Kindle (KF8) book" : "MOBI book";
  deck.unit = "chapter";
  for (const auto& [label, value] :
       {std::pair{"Title", &book.title}, std::pair{"Author", &book.author}, std::pair{"Publisher", &book.publisher}}) {
    const std::string line = sections::one_line(utf8::sanitized(*value));
    if (!line.empty()) deck.preamble += std::string(deck.preamble.empty() ? "" : "\n") + label + ": " + line;
  }
  std::size_t images = 0;
  for (const std::string& part : book.html) {
    for (const std::string_view piece : at_page_breaks(part)) {
      if (cancel.cancelled()) return *error = "the read was cancelled", false;
      html_text::ImageRefs refs;
      refs.first_number = images + 1;
      const html_text::Text text = html_text::to_text(piece, false, &refs);
      if (!text.error.empty()) return *error = text.error, false;
      if (text.text.empty() && refs.sources.empty()) continue;  // a break between two breaks
      images += refs.sources.size();
      sections::Section section;
      section.text = text.text;
      for (const std::string& src : refs.sources) section.images.push_back(image_name(src));
      if (section.text.starts_with('#')) {
        const std::string first = section.text.substr(0, section.text.find('\n'));
        section.title = sections::one_line(first.substr(std::min(first.find_first_not_of('#'), first.size())));
      }
      // Past the engine's count, the rest of the book goes on in the last chapter.
      if (deck.sections.size() >= sections::kMaxSections) {
        sections::Section& last = deck.sections.back();
        last.text += "\n\n" + section.text;
        last.images.insert(last.images.end(), section.images.begin(), section.images.end());
        continue;
      }
      deck.sections.push_back(std::move(section));
    }
  }
  out->images = std::move(book.images);
  out->images_left_out = book.images_left_out;
  return true;
}

std::size_t approx_bytes(const Chapters& c) {
  std::size_t n = sizeof c + c.deck.preamble.size();
  for (const auto& s : c.deck.sections) {
    n += sizeof s + s.title.size() + s.text.size();
    for (const auto& image : s.images) n += sizeof image + image.size();
  }
  for (const auto& [name, bytes] : c.images) n += name.size() + bytes.size() + 64;
  return n;
}

ReadOutcome render(const Chapters& book, const std::string& path, std::uint64_t size, const sections::Options& options,
                   const CancelToken& cancel) {
  nlohmann::json meta = {{"path", path}, {"size", size}};
  if (book.images_left_out != 0) meta["images_left_out"] = book.images_left_out;
  const office::PartReader images = [&book](const std::string& name, std::string* why, std::uint64_t cap) {
    const auto found = book.images.find(name);
    if (found == book.images.end()) {
      *why = "the book has no image resource of that name";
      return std::optional<std::string>();
    }
    if (cap != 0 && found->second.size() > cap) {
      *why = "it is " + human_size(found->second.size()) + ", over the " + human_size(cap) + " limit for images";
      return std::optional<std::string>();
    }
    return std::optional<std::string>(found->second);
  };
  return sections::render(book.deck, images, path, options, cancel, std::move(meta));
}

// The book from its bytes, or the refusal.
std::variant<std::shared_ptr<const Chapters>, ReadOutcome> chapters_of(std::string_view bytes, const std::string& path,
                                                                       const CancelToken& cancel) {
  MobiBook book;
  std::string error;
  auto chapters = std::make_shared<Chapters>();
  const bool ok = read_mobi(bytes, &book, &error, cancel) && to_chapters(std::move(book), chapters.get(), &error, cancel);
  if (cancel.cancelled()) return ReadOutcome::stopped();
  if (!ok)
    return ReadOutcome::error(path + " cannot be read as a MOBI e-book: " + error + ".",
                              nlohmann::json{{"path", path}, {"size", bytes.size()}});
  return chapters;
}

ReadOutcome read_file(const OpenedFile& file, const sections::Options& options, const CancelToken& cancel) {
  const std::string path = utf8::sanitized(file.path.string());
  // A model reads a book chapter by chapter: each call would otherwise take the book apart again.
  auto& cache = package::PartCache::instance();
  const std::string key = package::PartCache::key_of(file);
  std::shared_ptr<const Chapters> chapters = cache.get_value<Chapters>(key, "mobi");
  if (chapters == nullptr) {
    auto bytes = read_whole_file(file, kMaxFileBytes, "MOBI e-books");
    if (auto* refused = std::get_if<ReadOutcome>(&bytes)) return std::move(*refused);
    auto read = chapters_of(std::get<std::string>(bytes), path, cancel);
    if (auto* refused = std::get_if<ReadOutcome>(&read)) return std::move(*refused);
    chapters = std::move(std::get<std::shared_ptr<const Chapters>>(read));
    cache.put_value(key, "mobi", chapters, approx_bytes(*chapters));
  }
  return render(*chapters, path, static_cast<std::uint64_t>(file.st.st_size), options, cancel);
}

}  // namespace

ReadOutcome read_mobi_bytes(std::string_view bytes, std::string_view name, const sections::Options& options,
                            const CancelToken& cancel) {
  const std::string path = utf8::sanitized(name);
  auto read = chapters_of(bytes, path, cancel);
  if (auto* refused = std::get_if<ReadOutcome>(&read)) return std::move(*refused);
  return render(*std::get<std::shared_ptr<const Chapters>>(read), path, bytes.size(), options, cancel);
}

// `limit` counts chapters, as it does in an EPUB book.
ReadOutcome read_call(const ReaderCall& call) { return read_file(call.file, sections::call_options(call, 0), call.cancel); }

ResourceReadResult read_as_resource(const ResourceCall& call) {
  return resource_from_outcome(read_file(call.file, sections::resource_options(call), call.cancel), true);
}

}  // namespace mcpread::readers::mobi
