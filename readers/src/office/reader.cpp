#include "office/reader.hpp"

#include "human_size.hpp"
#include "mcpread/readers/hint.hpp"
#include "mcpread/readers/utf8.hpp"
#include "office/block_images.hpp"
#include "office/builders.hpp"
#include "office/document.hpp"
#include "package/open.hpp"
#include "package/part_cache.hpp"

#include <algorithm>
#include <set>
#include <variant>

namespace mcpread::readers::office {
namespace {

constexpr std::size_t kFooterReserve = 600;  // bytes of the cap kept for notes' and closing lines
constexpr std::size_t kMinBlockBudget = 512;

std::string n2s(std::uint64_t v) { return std::to_string(v); }

std::string_view noun(Format f) { return f == Format::docx ? "Word document" : "OpenDocument text"; }

package::Expected expected(Format f) {
  return {f == Format::docx ? "a Word document" : "an OpenDocument text",
          {noun(f), "text", "Word .doc", f == Format::docx ? "a DOCX document" : "an ODT document"}};
}

}  // namespace

ReadOutcome render_document(const Document& doc, const PartReader& images_of, std::string_view noun, std::string_view path,
                            const OfficeOptions& options, const CancelToken& cancel, nlohmann::json meta) {
  const std::uint64_t n = doc.blocks.size();
  std::string header = std::string(noun) + " " + std::string(path) + ": " + n2s(n) +
                       (n == 1 ? " paragraph" : " paragraphs");
  std::vector<std::string> parts;
  if (doc.tables) parts.push_back(n2s(doc.tables) + (doc.tables == 1 ? " table" : " tables"));
  if (doc.images) parts.push_back(n2s(doc.images) + (doc.images == 1 ? " image" : " images"));
  if (!doc.notes.empty()) parts.push_back(n2s(doc.notes.size()) + (doc.notes.size() == 1 ? " note" : " notes"));
  if (doc.comments) parts.push_back(n2s(doc.comments) + (doc.comments == 1 ? " comment" : " comments"));
  for (std::size_t i = 0; i < parts.size(); ++i) header += (i == 0 ? " (" : ", ") + parts[i];
  header += parts.empty() ? "." : ").";
  meta["paragraphs"] = n;
  meta["tables"] = doc.tables;
  meta["notes"] = doc.notes.size();
  meta["comments"] = doc.comments;

  const std::uint64_t start = std::max<std::uint64_t>(1, options.offset);
  if (n == 0 && start == 1) {
    ReadOutcome o;
    o.blocks.emplace_back(TextBlock{utf8::sanitized(header + "\n\n[The document has no text.]")});
    meta["truncated"] = false;
    meta["images"] = 0;
    o.meta = std::move(meta);
    return o;
  }
  if (start > n)
    return ReadOutcome::error("Offset " + n2s(start) + " is past the end of " + std::string(path) + ": the document has " +
                       n2s(n) + (n == 1 ? " paragraph." : " paragraphs.") + " Use an offset from 1 to " + n2s(n) + ".",
                   std::move(meta));
  const std::uint64_t wanted = std::min(std::max<std::uint64_t>(1, options.limit.value_or(n)), n - start + 1);
  const std::uint64_t last = start + wanted - 1;

  ReadOutcome o;
  std::string current = std::move(header);
  std::size_t sent_text = 0;
  std::uint64_t end = 0;
  bool capped = false, cut = false;
  ImageTally tally;
  std::uint64_t first_unsent = 0;
  std::set<std::size_t> notes;
  const std::size_t cap = options.max_output_bytes;
  for (std::uint64_t i = start; i <= last; ++i) {
    if (cancel.cancelled()) return ReadOutcome::stopped();
    const DocBlock& b = doc.blocks[static_cast<std::size_t>(i - 1)];
    std::string text = render_block(b);
    const DocBlock* previous = end != 0 ? &doc.blocks[static_cast<std::size_t>(i - 2)] : nullptr;
    const bool list_run = previous != nullptr && b.type == DocBlock::Type::list_item &&
                          previous->type == DocBlock::Type::list_item && previous->list == b.list;
    const std::string sep = current.empty() ? "" : list_run ? "\n" : "\n\n";
    const std::size_t used = sent_text + current.size() + sep.size();
    if (used + text.size() + kFooterReserve > cap) {
      if (end != 0) {
        capped = true;
        break;
      }
      const std::size_t room = std::max(cap > used + kFooterReserve ? cap - used - kFooterReserve : 0, kMinBlockBudget);
      if (text.size() > room) {
        const std::size_t keep = utf8::prefix_bytes(text, room);
        text = text.substr(0, keep) + "\n[\u2026 " + n2s(utf8::count_chars(std::string_view(text).substr(keep))) +
               " characters of paragraph " + n2s(i) + " omitted to fit the output cap of " + n2s(cap) + " bytes \u2026]";
        cut = true;
      }
    }
    current += sep + text;
    end = i;
    notes.insert(b.notes.begin(), b.notes.end());
    if (!b.images.empty()) {
      std::vector<Block> images;
      const std::size_t unsent = tally.unsent;
      if (!add_block_images(images_of, b.images, options.image, options.max_images, tally, current, images, cancel))
        return ReadOutcome::stopped();
      if (tally.unsent > unsent && first_unsent == 0) first_unsent = i;
      flush_before_images(o.blocks, current, images, sent_text);
    }
    if (cut) {
      capped = end < last;
      break;
    }
  }

  std::string footer;
  for (std::size_t k : notes) {
    std::string line = "[^" + doc.notes[k].label + "]: " + doc.notes[k].text;
    if (sent_text + current.size() + footer.size() + line.size() + 200 > cap) {
      footer += "\n[Further notes omitted to fit the output cap.]";
      break;
    }
    footer += "\n" + line;
  }
  if (!footer.empty()) footer = "\n" + footer;
  const std::string range = n2s(start) + "-" + n2s(end) + " of " + n2s(n);
  const std::string next = "To read more, " + options.wording.say({.offset = end + 1}, HintForm::call_again) + ".";
  footer += "\n\n" + (end < n ? "[Paragraphs " + range + ". " + next + "]" : "[Paragraphs " + range + ". End of document.]");
  if (tally.unsent > 0) {
    footer += "\n[" + n2s(tally.unsent) + (tally.unsent == 1 ? " image was" : " images were") +
              " not sent: at most " + n2s(options.max_images) + " images per answer.";
    if (first_unsent > start)
      footer += " To see them, " + options.wording.say({.offset = first_unsent}, HintForm::call_again) + ".";
    footer += "]";
  }
  current += footer;
  if (current.starts_with('\n')) current.erase(0, current.find_first_not_of('\n'));
  o.blocks.emplace_back(TextBlock{std::move(current)});
  for (auto& b : o.blocks)
    if (auto* t = std::get_if<TextBlock>(&b); t != nullptr && !utf8::is_valid(t->text)) t->text = utf8::sanitized(t->text);
  meta["start_paragraph"] = start;
  meta["end_paragraph"] = end;
  if (end < n) meta["next_offset"] = end + 1;
  meta["truncated"] = capped || cut;
  meta["images"] = tally.sent;
  if (tally.unsent > 0) meta["images_not_sent"] = tally.unsent;
  o.meta = std::move(meta);
  return o;
}

namespace {

// What a parsed document holds, roughly: the bytes the cache counts it as.
std::size_t approx_bytes(const Document& doc) {
  std::size_t n = sizeof doc + doc.blocks.size() * sizeof(DocBlock) + doc.notes.size() * sizeof(Note);
  for (const auto& b : doc.blocks) {
    n += b.text.size() + b.list.size() + b.notes.size() * sizeof(std::size_t);
    for (const auto& row : b.rows)
      for (const auto& cell : row) n += sizeof cell + cell.size();
    for (const auto& image : b.images) n += sizeof image + image.size();
  }
  for (const auto& note : doc.notes) n += note.label.size() + note.text.size();
  return n;
}

// The package's cache key (empty for bytes in memory): a model reads a document page by page, and
// each page would otherwise parse its whole XML again.
ReadOutcome read_opened(std::variant<package::Opened, ReadOutcome> opening, Format format, const OfficeOptions& options,
                        const CancelToken& cancel) {
  if (auto* refused = std::get_if<ReadOutcome>(&opening)) return std::move(*refused);
  auto& opened = std::get<package::Opened>(opening);
  const std::string_view name = format == Format::docx ? "docx" : "odt";
  auto& cache = package::PartCache::instance();
  std::shared_ptr<const Document> doc = opened.cache_key.empty() ? nullptr : cache.get_value<Document>(opened.cache_key, name);
  if (doc == nullptr) {
    auto parsed = std::make_shared<Document>();
    std::string error;
    const bool ok = format == Format::docx ? read_docx(*opened.zip, parsed.get(), &error)
                                           : read_odt(*opened.zip, parsed.get(), &error);
    if (cancel.cancelled()) return ReadOutcome::stopped();
    if (!ok) return ReadOutcome::error(opened.cannot + error + ".", std::move(opened.meta));
    if (!opened.cache_key.empty()) cache.put_value(opened.cache_key, name, parsed, approx_bytes(*parsed));
    doc = std::move(parsed);
  }
  return render_document(*doc, zip_parts(*opened.zip), noun(format), opened.path, options, cancel,
                         std::move(opened.meta));
}

}  // namespace

ReadOutcome read_office_bytes(std::string_view bytes, std::string_view name, Format format,
                              const OfficeOptions& options, const CancelToken& cancel) {
  return read_opened(package::open(bytes, name, options.zip, expected(format)), format, options, cancel);
}

ReadOutcome read_office(const OpenedFile& file, Format format, const OfficeOptions& options,
                        const CancelToken& cancel) {
  return read_opened(package::open(file, options.zip, expected(format)), format, options, cancel);
}

}  // namespace mcpread::readers::office
