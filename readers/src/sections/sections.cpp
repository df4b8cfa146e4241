#include "sections/sections.hpp"

#include "mcpread/readers/hint.hpp"
#include "mcpread/readers/utf8.hpp"
#include "office/block_images.hpp"
#include "paging/page_ranges.hpp"

#include <algorithm>
#include <variant>

namespace mcpread::readers::sections {
namespace {

constexpr std::size_t kFooterReserve = 600;  // bytes of the cap kept for the closing lines
constexpr std::size_t kMinBlockBudget = 512;

std::string n2s(std::uint64_t v) { return std::to_string(v); }

std::string count_of(std::uint64_t n, std::string_view unit) {
  return n2s(n) + " " + std::string(unit) + (n == 1 ? "" : "s");
}

std::string capital(std::string_view s) {
  std::string out(s);
  if (!out.empty() && out[0] >= 'a' && out[0] <= 'z') out[0] = static_cast<char>(out[0] - 'a' + 'A');
  return out;
}

// "── Slide 3 of 12: Results (hidden) ──"
std::string marker(const Deck& deck, std::size_t k) {
  const Section& s = deck.sections[k - 1];
  std::string m = "\u2500\u2500 " + capital(deck.unit) + " " + n2s(k) + " of " + n2s(deck.sections.size());
  if (!s.title.empty()) m += ": " + s.title;
  if (s.hidden) m += " (hidden)";
  return m + " \u2500\u2500";
}

// The lines of `text` from line `first` (1-based) on.
std::string from_line(const std::string& text, std::uint64_t first) {
  std::size_t at = 0;
  for (std::uint64_t line = 1; line < first && at != std::string::npos; ++line) {
    at = text.find('\n', at);
    if (at != std::string::npos) ++at;
  }
  return at == std::string::npos ? std::string() : text.substr(at);
}

std::uint64_t line_count(std::string_view text) {
  return text.empty() ? 0 : static_cast<std::uint64_t>(std::count(text.begin(), text.end(), '\n')) + 1;
}

}  // namespace


ReadOutcome render(const Deck& deck, package::ZipArchive& zip, const std::string& path, const Options& options,
                   const CancelToken& cancel, nlohmann::json meta) {
  return render(deck, office::zip_parts(zip), path, options, cancel, std::move(meta));
}

ReadOutcome render(const Deck& deck, const office::PartReader& images_of, const std::string& path, const Options& options,
                   const CancelToken& cancel, nlohmann::json meta) {
  const std::size_t n = deck.sections.size();
  const std::string unit = deck.unit, units = deck.unit + "s";
  std::size_t hidden = 0, images = 0;
  for (const Section& s : deck.sections) {
    hidden += s.hidden ? 1 : 0;
    images += s.images.size();
  }
  std::string header = deck.noun + " " + path + ": " + count_of(n, unit);
  std::vector<std::string> parts;
  if (hidden) parts.push_back(n2s(hidden) + " hidden");
  if (images) parts.push_back(count_of(images, "image"));
  for (std::size_t i = 0; i < parts.size(); ++i) header += (i == 0 ? " (" : ", ") + parts[i];
  header += parts.empty() ? "." : ").";
  if (!deck.preamble.empty()) header += "\n" + deck.preamble;
  meta[units] = n;
  if (hidden) meta["hidden_" + units] = hidden;
  if (n == 0) {
    ReadOutcome o;
    o.blocks.emplace_back(TextBlock{utf8::sanitized(header + "\n\n[It has no " + units + ".]")});
    meta["truncated"] = false;
    meta["images"] = 0;
    o.meta = std::move(meta);
    return o;
  }

  // The selection: `pages`, or every section from the first.
  std::vector<int> selected;
  if (options.pages.find_first_not_of(" \t\r\n") == std::string::npos) {
    for (std::size_t k = 1; k <= n; ++k) selected.push_back(static_cast<int>(k));
  } else {
    auto parsed = parse_page_ranges(options.pages, static_cast<int>(n), unit);
    if (auto* e = std::get_if<std::string>(&parsed)) return ReadOutcome::error(*e, std::move(meta));
    selected = std::move(std::get<std::vector<int>>(parsed));
  }
  const std::uint64_t offset = std::max<std::uint64_t>(1, options.offset);
  {
    const std::uint64_t lines = line_count(deck.sections[static_cast<std::size_t>(selected.front() - 1)].text);
    if (offset > 1 && offset > lines)
      return ReadOutcome::error("Offset " + n2s(offset) + " is past the end of " + unit + " " + n2s(selected.front()) +
                         " of " + path + ": its text has " + count_of(lines, "line") + ".",
                     std::move(meta));
  }

  ReadOutcome o;
  std::string current = std::move(header);
  std::size_t sent_text = 0, shown = 0;
  office::ImageTally tally;
  int first_unsent = 0;
  std::uint64_t cut_line = 0;  // the line of the last section shown where its text was cut
  const std::size_t cap = options.max_output_bytes;
  for (const int k : selected) {
    if (cancel.cancelled()) return ReadOutcome::stopped();
    if (options.max_sections != 0 && shown >= options.max_sections) break;
    const Section& s = deck.sections[static_cast<std::size_t>(k - 1)];
    const std::uint64_t first_line = shown == 0 ? offset : 1;
    std::string body = first_line > 1 ? from_line(s.text, first_line) : s.text;
    if (!s.notes.empty()) body += (body.empty() ? "" : "\n\n") + std::string("[Notes: ") + s.notes + "]";
    std::string text = marker(deck, static_cast<std::size_t>(k));
    if (first_line > 1) text += "\n[From line " + n2s(first_line) + " of the " + unit + "'s text.]";
    if (!body.empty()) text += "\n\n" + body;
    const std::size_t used = sent_text + current.size() + 2;
    if (used + text.size() + kFooterReserve > cap) {
      if (shown != 0) break;
      // The first section alone is over the cap: its text is cut at a line, and continued by offset.
      const std::size_t room = std::max(cap > used + kFooterReserve ? cap - used - kFooterReserve : 0, kMinBlockBudget);
      std::size_t keep = text.rfind('\n', utf8::prefix_bytes(text, room));
      const std::size_t marker_end = text.find('\n');
      if (keep == std::string::npos || keep <= marker_end) keep = utf8::prefix_bytes(text, room);
      // Lines of the section's text shown: those of `body` before the cut.
      const std::size_t body_at = text.size() - body.size();
      const std::string_view shown_body =
          keep > body_at ? std::string_view(text).substr(body_at, keep - body_at) : std::string_view();
      cut_line = first_line + static_cast<std::uint64_t>(std::count(shown_body.begin(), shown_body.end(), '\n'));
      // The next call starts on a line with text, not on the blank line between paragraphs.
      const std::uint64_t lines = line_count(s.text);
      while (cut_line < lines && from_line(s.text, cut_line).starts_with('\n')) ++cut_line;
      text.resize(keep);
    }
    current += "\n\n" + text;
    ++shown;
    std::vector<Block> blocks;
    const std::size_t unsent = tally.unsent;
    // A section cut by the cap keeps its image markers: its images come with its last part.
    if (cut_line == 0 &&
        !office::add_block_images(images_of, s.images, options.image, options.max_images, tally, current, blocks, cancel))
      return ReadOutcome::stopped();
    if (tally.unsent > unsent && first_unsent == 0) first_unsent = k;
    office::flush_before_images(o.blocks, current, blocks, sent_text);
    if (cut_line != 0) break;
  }

  // The closing note: what was shown, and how to go on.
  const std::vector<int> shown_list(selected.begin(), selected.begin() + static_cast<std::ptrdiff_t>(shown));
  const std::vector<int> rest(selected.begin() + static_cast<std::ptrdiff_t>(shown), selected.end());
  std::string note = "[" + capital(shown == 1 ? unit : units) + " " + format_page_ranges(shown_list, ",") + " of " + n2s(n);
  if (cut_line != 0) {
    std::vector<int> again = {selected[shown - 1]};
    again.insert(again.end(), rest.begin(), rest.end());
    note += ". " + capital(unit) + " " + n2s(selected[shown - 1]) + " is cut at line " + n2s(cut_line) +
            " to fit the output cap of " + n2s(cap) + " bytes. To read on, " +
            options.wording.say({.offset = cut_line, .pages = format_page_ranges(again, ",")},
                                HintForm::call_again) +
            ".]";
    meta["next_pages"] = format_page_ranges(again, ",");
    meta["next_offset"] = cut_line;
  } else if (!rest.empty()) {
    note += ". To read more, " +
            options.wording.say({.pages = format_page_ranges(rest, ",")}, HintForm::call_again) + ".]";
    meta["next_pages"] = format_page_ranges(rest, ",");
  } else {
    note += options.pages.find_first_not_of(" \t\r\n") == std::string::npos ? ". End of document.]" : ". End of the selection.]";
  }
  if (tally.unsent > 0) {
    note += "\n[" + count_of(tally.unsent, "image") + (tally.unsent == 1 ? " was" : " were") + " not sent: at most " +
            n2s(options.max_images) + " images per answer. To see them, " +
            options.wording.say({.pages = n2s(first_unsent)}, HintForm::call_again) + ".]";
  }
  current += "\n\n" + note;
  if (current.starts_with('\n')) current.erase(0, current.find_first_not_of('\n'));
  o.blocks.emplace_back(TextBlock{std::move(current)});
  for (auto& b : o.blocks)
    if (auto* t = std::get_if<TextBlock>(&b); t != nullptr && !utf8::is_valid(t->text)) t->text = utf8::sanitized(t->text);
  meta["shown_" + units] = format_page_ranges(shown_list, ",");
  meta["truncated"] = cut_line != 0 || !rest.empty();
  meta["images"] = tally.sent;
  if (tally.unsent > 0) meta["images_not_sent"] = tally.unsent;
  o.meta = std::move(meta);
  return o;
}

std::string one_line(std::string_view text) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

}  // namespace mcpread::readers::sections
