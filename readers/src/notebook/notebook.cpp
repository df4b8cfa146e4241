#include "mcpread/readers/hint.hpp"
#include "mcpread/readers/notebook.hpp"

#include "file_io.hpp"
#include "human_size.hpp"
#include "mcpread/common/json_depth.hpp"
#include "mcpread/readers/utf8.hpp"
#include "notebook_cells.hpp"
#include "notebook_text.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace mcpread::readers {
namespace {

using json = nlohmann::json;
namespace nt = notebook_text;
using notebook_cells::CellOut;
using notebook_cells::Context;
using notebook_cells::fence_language;
using notebook_cells::member;
using notebook_cells::string_member;

constexpr std::size_t kMaxDepth = 1000;         // JSON nesting refused beyond this (stack safety)
constexpr std::size_t kFooterReserve = 400;     // bytes of the cap kept for the closing notes
constexpr std::size_t kMinCellBudget = 512;     // the first cell keeps at least this much text

std::string n2s(std::uint64_t v) { return std::to_string(v); }

// Records the first parse error's message (line, column, what) instead of throwing.
struct ErrorSax {
  std::string message;
  bool null() { return true; }
  bool boolean(bool) { return true; }
  bool number_integer(json::number_integer_t) { return true; }
  bool number_unsigned(json::number_unsigned_t) { return true; }
  bool number_float(json::number_float_t, const std::string&) { return true; }
  bool string(std::string&) { return true; }
  bool binary(json::binary_t&) { return true; }
  bool start_object(std::size_t) { return true; }
  bool key(std::string&) { return true; }
  bool end_object() { return true; }
  bool start_array(std::size_t) { return true; }
  bool end_array() { return true; }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& ex) {
    message = ex.what();
    return false;
  }
};

std::string json_error(std::string_view text) {
  ErrorSax sax;
  json::sax_parse(text, &sax);
  std::string m = sax.message;
  if (const auto p = m.find("parse error"); p != std::string::npos) m.erase(0, p);
  if (m.size() > 300) m = m.substr(0, utf8::prefix_bytes(m, 300)) + "\u2026";
  return m.empty() ? std::string() : " (" + utf8::sanitized(m) + ")";
}

// The first cell of an answer, cut in the middle to about `budget` bytes.
std::string cut_cell(std::string_view text, std::size_t budget, std::uint64_t index, std::size_t cap,
                     const Wording& wording) {
  const nt::Cut cut = nt::middle_cut(text, budget * 2 / 3, text.size() - std::min(text.size(), budget / 3));
  std::string out(text.substr(0, cut.head_end));
  if (!out.empty() && out.back() != '\n') out += '\n';
  out += "[\u2026 " + n2s(utf8::count_chars(text.substr(cut.head_end, cut.tail_begin - cut.head_end))) +
         " characters of cell " + n2s(index) + " omitted to fit the output cap of " + n2s(cap) +
         " bytes; read the raw JSON with " + wording.say({.as = FileKind::text}, HintForm::arguments) +
         " to see them \u2026]\n";
  out.append(text.substr(cut.tail_begin));
  return out;
}

}  // namespace

ReadOutcome read_notebook(const OpenedFile& file, const NotebookOptions& options,
                          const CancelToken& cancel) {
  const std::string path = utf8::sanitized(file.path.string());
  const auto size = static_cast<std::uint64_t>(file.st.st_size);
  json meta = {{"path", path}, {"size", size}};
  const std::string as_text =
      " " + options.wording.say({.as = FileKind::text, .paged = true}, HintForm::Call) + " to read the raw JSON.";
  if (size > options.max_file_bytes)
    return ReadOutcome::error(path + " is " + human_size(size) + " (" + n2s(size) + " bytes), over the " +
                       human_size(options.max_file_bytes) +
                       " limit for notebooks, so it was not parsed." + as_text, meta);
  if (size == 0) return ReadOutcome::error(path + " is empty (0 bytes), not a notebook.", meta);
  auto bytes = file_io::read_whole(file.fd.get(), size, options.max_file_bytes);
  if (!bytes)
    return ReadOutcome::error(errno == EFBIG ? path + " grew past the " + human_size(options.max_file_bytes) +
                                        " limit for notebooks while being read, so it was not parsed." + as_text
                                  : "Cannot read " + path + ": " + utf8::sanitized(std::strerror(errno)) + ".",
                   meta);
  if (cancel.cancelled()) return ReadOutcome::stopped();
  const bool repaired = !utf8::is_valid(*bytes);
  if (repaired) *bytes = utf8::sanitized(*bytes);
  const std::string invalid = path + " is not a valid notebook: ";
  if (json_nesting_depth(*bytes, kMaxDepth) > kMaxDepth)
    return ReadOutcome::error(invalid + "its JSON is nested more than " + n2s(kMaxDepth) + " levels deep." + as_text, meta);
  json doc = json::parse(*bytes, nullptr, false);
  if (doc.is_discarded()) return ReadOutcome::error(invalid + "it is not valid JSON" + json_error(*bytes) + "." + as_text, meta);
  bytes.reset();
  if (cancel.cancelled()) return ReadOutcome::stopped();
  if (!doc.is_object()) return ReadOutcome::error(invalid + "its top level is not a JSON object." + as_text, meta);

  const json* major_v = member(doc, "nbformat");
  const json* minor_v = member(doc, "nbformat_minor");
  const bool has_major = major_v != nullptr && major_v->is_number_integer();
  const std::int64_t major = has_major ? major_v->get<std::int64_t>() : 0;
  const std::int64_t minor = minor_v != nullptr && minor_v->is_number_integer() ? minor_v->get<std::int64_t>() : 0;
  if (has_major && major < 2)
    return ReadOutcome::error(invalid + "nbformat " + std::to_string(major) + " is not supported (only 2, 3 and 4 are)." + as_text, meta);
  // nbformat 2 and 3 keep their cells in worksheets (2 is 3 without heading cells, as nbformat's
  // own v2 -> v3 step says); a notebook that says 2 or 3 but has "cells" is read as 4.
  const bool old_format = major == 2 || major == 3;
  const json* sheets = member(doc, "worksheets");
  if (sheets != nullptr && (old_format || member(doc, "cells") == nullptr)) {
    if (!sheets->is_array()) return ReadOutcome::error(invalid + "'worksheets' is not an array." + as_text, meta);
    notebook_cells::upgrade_v3(doc);
  } else if (old_format && member(doc, "cells") == nullptr) {
    return ReadOutcome::error(invalid + "'worksheets' is missing (nbformat " + std::to_string(major) + ")." + as_text, meta);
  }
  const json* cells_v = member(doc, "cells");
  if (cells_v == nullptr) return ReadOutcome::error(invalid + "'cells' is missing." + as_text, meta);
  if (!cells_v->is_array()) return ReadOutcome::error(invalid + "'cells' is not an array." + as_text, meta);
  const json& cells = *cells_v;

  // Kernel and language.
  const json* md = member(doc, "metadata");
  const json empty = json::object();
  const json& metadata = md != nullptr ? *md : empty;
  const json* spec = member(metadata, "kernelspec");
  std::string kernel = spec ? string_member(*spec, "display_name") : std::string();
  if (kernel.empty() && spec) kernel = string_member(*spec, "name");
  std::string language = spec ? string_member(*spec, "language") : std::string();
  if (const json* info = member(metadata, "language_info"); language.empty() && info)
    language = string_member(*info, "name");
  if (language.empty()) language = string_member(metadata, "language");
  for (std::size_t i = 0; language.empty() && i < cells.size(); ++i)  // nbformat 2 and 3: per cell
    if (string_member(cells[i], "cell_type") == "code") language = string_member(cells[i], "language");

  std::uint64_t counts[4] = {0, 0, 0, 0};  // code, markdown, raw, other
  for (const auto& c : cells) {
    const std::string t = string_member(c, "cell_type");
    ++counts[t == "code" ? 0 : t == "markdown" ? 1 : t == "raw" ? 2 : 3];
  }
  const std::uint64_t n = cells.size();
  std::string header = "Notebook " + path + ": " + n2s(n) + (n == 1 ? " cell (" : " cells (") +
                       n2s(counts[0]) + " code, " + n2s(counts[1]) + " markdown, " + n2s(counts[2]) + " raw" +
                       (counts[3] ? ", " + n2s(counts[3]) + " other" : std::string()) + ")";
  if (!kernel.empty())
    header += ", kernel " + kernel + (language.empty() ? std::string() : " (" + language + ")");
  else if (!language.empty())
    header += ", language " + language;
  if (has_major) header += ", nbformat " + std::to_string(major) + "." + std::to_string(minor);
  header += ".\n";

  meta["cells"] = n;
  if (!language.empty()) meta["language"] = language;
  if (!kernel.empty()) meta["kernel"] = kernel;
  if (has_major) meta["nbformat"] = std::to_string(major) + "." + std::to_string(minor);

  const std::uint64_t start = std::max<std::uint64_t>(1, options.offset);
  if (n == 0 && start == 1) {
    ReadOutcome o;
    o.meta = std::move(meta);
    o.meta["truncated"] = false;
    o.meta["images"] = 0;
    o.blocks.emplace_back(TextBlock{utf8::sanitized(header + "\n[The notebook has no cells.]")});
    return o;
  }
  if (start > n)
    return ReadOutcome::error("Offset " + n2s(start) + " is past the end of " + path +
                       (n == 0 ? std::string(": the notebook has no cells.")
                               : ": the notebook has " + n2s(n) + (n == 1 ? " cell." : " cells.") +
                                     " Use an offset from 1 to " + n2s(n) + "."),
                   meta);
  const std::uint64_t wanted = std::min(std::max<std::uint64_t>(1, options.limit.value_or(n)), n - start + 1);
  const std::uint64_t last = start + wanted - 1;

  Context ctx{options, cancel, fence_language(language)};
  ReadOutcome o;
  std::string current = std::move(header);
  std::size_t sent_text = 0;  // bytes of the text blocks already emitted
  std::uint64_t end = 0;
  bool capped = false;
  bool cut = false;
  std::size_t unsent = 0;
  std::uint64_t first_unsent = 0;
  std::size_t trimmed = 0;
  const std::size_t cap = options.max_output_bytes;
  for (std::uint64_t i = start; i <= last; ++i) {
    if (cancel.cancelled()) return ReadOutcome::stopped();
    CellOut c = notebook_cells::render_cell(ctx, cells[static_cast<std::size_t>(i - 1)], i);
    if (c.cancelled || cancel.cancelled()) return ReadOutcome::stopped();
    const std::size_t used = sent_text + current.size() + (current.empty() ? 0 : 1);
    if (used + c.text.size() + kFooterReserve > cap) {
      if (end != 0) {
        capped = true;
        break;
      }
      const std::size_t room = cap > used + kFooterReserve ? cap - used - kFooterReserve : 0;
      if (c.text.size() > std::max(room, kMinCellBudget)) {
        c.text = cut_cell(c.text, std::max(room, kMinCellBudget), i, cap, options.wording);
        cut = true;
      }
    }
    if (!current.empty()) current += '\n';
    current += c.text;
    end = i;
    ctx.images_committed += c.images.size();
    trimmed += c.trimmed;
    if (c.unsent > 0 && first_unsent == 0) first_unsent = i;
    unsent += c.unsent;
    if (!c.images.empty()) {
      sent_text += current.size();
      o.blocks.emplace_back(TextBlock{std::move(current)});
      current.clear();
      for (auto& img : c.images) o.blocks.emplace_back(std::move(img));
    }
    if (cut) {
      capped = end < last;
      break;
    }
  }

  const std::string range = n2s(start) + "-" + n2s(end) + " of " + n2s(n);
  const std::string next =
      "To read more, " + options.wording.say({.offset = end + 1}, HintForm::call_again) + ".";
  std::string footer = capped ? "[Cells " + range + " shown. " + next + "]"
                       : end < n ? "[Cells " + range + ". " + next + "]"
                                 : "[Cells " + range + ". End of notebook.]";
  if (unsent > 0) {
    footer += "\n[" + n2s(unsent) + (unsent == 1 ? " image output was" : " image outputs were") +
              " not sent: at most " + n2s(options.max_images) + " images per answer.";
    if (first_unsent > start)
      footer += " To see " + std::string(unsent == 1 ? "it" : "them") + ", " +
                options.wording.say({.offset = first_unsent}, HintForm::call_again) + ".";
    footer += "]";
  }
  if (repaired) footer += "\n[Invalid UTF-8 bytes in the notebook are shown as U+FFFD.]";
  if (!current.empty()) current += '\n';
  current += footer;
  o.blocks.emplace_back(TextBlock{std::move(current)});
  for (auto& b : o.blocks)
    if (auto* t = std::get_if<TextBlock>(&b); t != nullptr && !utf8::is_valid(t->text)) t->text = utf8::sanitized(t->text);

  meta["start_cell"] = start;
  meta["end_cell"] = end;
  if (end < n) meta["next_offset"] = end + 1;
  meta["truncated"] = capped || cut;
  meta["images"] = ctx.images_committed;
  if (unsent > 0) meta["images_not_sent"] = unsent;
  if (trimmed > 0) meta["outputs_trimmed"] = trimmed;
  o.meta = std::move(meta);
  return o;
}

}  // namespace mcpread::readers
