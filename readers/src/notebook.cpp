#include "mcpread/readers/notebook.hpp"

#include "file_io.hpp"
#include "human_size.hpp"
#include "mcpread/readers/utf8.hpp"
#include "notebook_text.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace mcpread::readers {
namespace {

using json = nlohmann::json;
namespace nt = notebook_text;

constexpr std::size_t kMaxDepth = 1000;         // JSON nesting refused beyond this (stack safety)
constexpr std::size_t kFooterReserve = 400;     // bytes of the cap kept for the closing notes
constexpr std::size_t kMinCellBudget = 512;     // the first cell keeps at least this much text
constexpr std::array<std::string_view, 5> kImageTypes = {"image/png", "image/jpeg", "image/gif",
                                                         "image/webp", "image/svg+xml"};

std::string n2s(std::uint64_t v) { return std::to_string(v); }

std::string safe(std::string_view s) {
  std::string out;
  utf8::append_sanitized(s, out);
  return out;
}

std::string dims(unsigned w, unsigned h) { return n2s(w) + "\u00D7" + n2s(h); }

std::string format_name(const std::string& mime) {
  return mime == "image/png" ? "PNG" : mime == "image/jpeg" ? "JPEG" : mime == "image/gif" ? "GIF" : "WEBP";
}

const json* member(const json& obj, const char* key) {
  if (!obj.is_object()) return nullptr;
  const auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}
json* member(json& obj, const char* key) {
  if (!obj.is_object()) return nullptr;
  const auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}

// nbformat's multiline strings: a string, or an array of strings to concatenate.
std::string joined(const json* v) {
  if (v == nullptr) return {};
  if (v->is_string()) return v->get_ref<const std::string&>();
  std::string out;
  if (v->is_array())
    for (const auto& part : *v)
      if (part.is_string()) out += part.get_ref<const std::string&>();
  return out;
}

std::string string_member(const json& obj, const char* key) {
  const json* v = member(obj, key);
  return v != nullptr && v->is_string() ? v->get_ref<const std::string&>() : std::string();
}

std::string keys_of(const json& obj) {
  std::string out;
  if (obj.is_object())
    for (const auto& [k, v] : obj.items()) out += (out.empty() ? "" : ", ") + k;
  return out.empty() ? "no data" : out;
}

// Deepest nesting of arrays and objects (strings skipped), stopping early past `limit`.
std::size_t nesting_depth(std::string_view s, std::size_t limit) {
  std::size_t depth = 0;
  std::size_t worst = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < s.size() && worst <= limit; ++i) {
    const char c = s[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      worst = std::max(worst, ++depth);
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return worst;
}

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
  return m.empty() ? std::string() : " (" + safe(m) + ")";
}

// nbformat 3 → 4, in place: worksheets' cells become "cells", "input"/"prompt_number" become
// "source"/"execution_count", heading cells become markdown, pyout/pyerr outputs and their short
// MIME keys take their nbformat 4 names.
void upgrade_output_v3(json& o) {
  if (!o.is_object()) return;
  const std::string type = string_member(o, "output_type");
  if (type == "pyout") {
    o["output_type"] = "execute_result";
    if (json* p = member(o, "prompt_number")) o["execution_count"] = *p;
  } else if (type == "pyerr") {
    o["output_type"] = "error";
  } else if (type == "stream" && member(o, "name") == nullptr) {
    o["name"] = string_member(o, "stream");
  }
  if (type != "pyout" && type != "display_data") return;
  static constexpr std::array<std::pair<const char*, const char*>, 10> keys = {{
      {"text", "text/plain"}, {"html", "text/html"}, {"markdown", "text/markdown"},
      {"latex", "text/latex"}, {"png", "image/png"}, {"jpeg", "image/jpeg"},
      {"svg", "image/svg+xml"}, {"json", "application/json"},
      {"javascript", "application/javascript"}, {"pdf", "application/pdf"}}};
  json data = json::object();
  for (const auto& [old_key, mime] : keys) {
    if (json* v = member(o, old_key)) {
      data[mime] = std::move(*v);
      o.erase(old_key);
    }
  }
  o["data"] = std::move(data);
}

void upgrade_v3(json& doc) {
  json cells = json::array();
  json* sheets = member(doc, "worksheets");
  for (json& sheet : *sheets) {
    json* list = member(sheet, "cells");
    if (list == nullptr || !list->is_array()) continue;
    for (json& cell : *list) {
      if (cell.is_object()) {
        const std::string type = string_member(cell, "cell_type");
        if (type == "heading") {
          const json* level = member(cell, "level");
          const auto n = level != nullptr && level->is_number_integer()
                             ? std::clamp<std::int64_t>(level->get<std::int64_t>(), 1, 6)
                             : 1;
          cell["source"] = std::string(static_cast<std::size_t>(n), '#') + " " +
                           joined(member(cell, "source"));
          cell["cell_type"] = "markdown";
        } else if (type == "code") {
          json input = member(cell, "input") ? std::move(cell["input"]) : json("");
          cell["source"] = std::move(input);
          json count = member(cell, "prompt_number") ? cell["prompt_number"] : json(nullptr);
          cell["execution_count"] = std::move(count);
          if (json* outputs = member(cell, "outputs"); outputs != nullptr && outputs->is_array())
            for (json& o : *outputs) upgrade_output_v3(o);
        }
      }
      cells.push_back(std::move(cell));
    }
  }
  doc["cells"] = std::move(cells);
  doc.erase("worksheets");
}

// A fence info string: letters, digits and + # . _ - only, lower case.
std::string fence_language(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c >= 'A' && c <= 'Z') out += static_cast<char>(c - 'A' + 'a');
    else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || std::strchr("+#._-", c) != nullptr)
      out += c;
  }
  return out;
}

struct Context {
  const NotebookOptions& options;
  const CancelToken& cancel;
  std::string language;               // of code cells
  std::size_t images_committed = 0;   // sent by the cells already accepted
};

struct CellOut {
  std::string text;
  std::vector<ImageBlock> images;
  std::size_t unsent = 0;  // image outputs named but not sent because of max_images
  std::size_t trimmed = 0; // outputs cut to max_chars_per_output
  bool cancelled = false;
};

// One image of a cell: the line standing for it; the image goes to out.images when it is sent.
bool add_image(Context& ctx, CellOut& out, const std::string& label, std::string_view mime,
               const json& value, std::string& line) {
  const std::string head = "[" + label + ": ";
  if (ctx.images_committed + out.images.size() >= ctx.options.max_images) {
    ++out.unsent;
    line = head + std::string(mime) + ", not sent: the limit of " + n2s(ctx.options.max_images) +
           " images per answer was reached]";
    return false;
  }
  std::string bytes = joined(&value);
  if (mime != "image/svg+xml") {
    auto decoded = nt::base64_decode(bytes);
    if (!decoded) {
      line = head + std::string(mime) + ", not sent: its base64 data is not valid]";
      return false;
    }
    bytes = std::move(*decoded);
  }
  if (bytes.empty()) {
    line = head + std::string(mime) + ", not sent: it is empty]";
    return false;
  }
  if (bytes.size() > ctx.options.image.max_input_bytes) {
    line = head + std::string(mime) + ", " + human_size(bytes.size()) + ", not sent: over the " +
           human_size(ctx.options.image.max_input_bytes) + " limit for images]";
    return false;
  }
  auto result = encode_for_model(bytes, mime, ctx.options.image, ctx.cancel);
  if (const auto* error = std::get_if<std::string>(&result)) {
    out.cancelled = ctx.cancel.cancelled();
    line = head + std::string(mime) + ", not sent. " + *error + "]";
    return false;
  }
  auto& img = std::get<EncodedImage>(result);
  line = head + safe(img.original_format) + " " + dims(img.original_width, img.original_height) + " px";
  if (!img.passed_through) line += ", sent as " + format_name(img.mime) + " " + dims(img.width, img.height) + " px";
  line += "]";
  out.images.push_back(ImageBlock{std::move(img.mime), std::move(img.base64)});
  return true;
}

// Output text as sent: base64 payloads removed, cut to max_chars_per_output, ending in "\n".
void append_output_text(const Context& ctx, CellOut& out, std::string& body, std::string_view text) {
  bool trimmed = false;
  body += nt::trim_output(nt::scrub_data_uris(text), ctx.options.max_chars_per_output, &trimmed);
  if (trimmed) ++out.trimmed;
  if (!body.empty() && body.back() != '\n') body += '\n';
}

// The text form of a MIME bundle: markdown, plain text, HTML reduced to text, LaTeX, JSON.
std::optional<std::string> text_representation(const json& data) {
  if (const json* v = member(data, "text/markdown")) return joined(v);
  if (const json* v = member(data, "text/plain")) return nt::clean_terminal(joined(v));
  if (const json* v = member(data, "text/html")) return nt::html_to_text(joined(v));
  if (const json* v = member(data, "text/latex")) return joined(v);
  if (const json* v = member(data, "application/json"))
    return v->is_string() ? v->get<std::string>() : v->dump(2, ' ', false, json::error_handler_t::replace);
  return std::nullopt;
}

// A display_data / execute_result bundle: its image when it has one (the richest form for a
// multimodal reader), otherwise (or when the image is not sent) its text form.
void render_bundle(Context& ctx, CellOut& out, std::uint64_t cell, std::size_t& image_k,
                   const json* data, const std::string& label) {
  std::string body;
  if (data != nullptr && data->is_object()) {
    bool shown = false;
    for (std::string_view type : kImageTypes) {
      if (const json* v = member(*data, std::string(type).c_str())) {
        std::string line;
        shown = add_image(ctx, out, "Image output " + n2s(++image_k) + " of cell " + n2s(cell), type, *v, line);
        body += line + "\n";
        break;
      }
    }
    if (!shown)
      if (auto text = text_representation(*data)) append_output_text(ctx, out, body, *text);
  }
  if (body.empty())
    out.text += label + ": [not shown: " + (data != nullptr ? keys_of(*data) : std::string("no data")) + "]\n";
  else
    out.text += label + ":\n" + body;
}

void render_output(Context& ctx, CellOut& out, std::uint64_t cell, std::size_t& image_k, const json& o) {
  if (!o.is_object()) {
    out.text += "Output: [not a JSON object]\n";
    return;
  }
  const std::string type = string_member(o, "output_type");
  std::string body;
  if (type == "stream") {
    const std::string name = string_member(o, "name");
    append_output_text(ctx, out, body, nt::clean_terminal(joined(member(o, "text"))));
    out.text += "Output (stream" + (name.empty() ? "" : " " + name) + "):\n" + body;
  } else if (type == "execute_result") {
    const json* count = member(o, "execution_count");
    const std::string n = count != nullptr && count->is_number_integer() ? " [" + count->dump() + "]" : "";
    render_bundle(ctx, out, cell, image_k, member(o, "data"), "Output" + n + " (execute_result)");
  } else if (type == "display_data" || type == "update_display_data") {
    render_bundle(ctx, out, cell, image_k, member(o, "data"), "Output (" + type + ")");
  } else if (type == "error") {
    const std::string value = nt::clean_terminal(string_member(o, "evalue"));
    out.text += "Error: " + nt::clean_terminal(string_member(o, "ename")) + (value.empty() ? "" : ": " + value) + "\n";
    std::string traceback;
    if (const json* tb = member(o, "traceback"); tb != nullptr && tb->is_array())
      for (const auto& line : *tb)
        if (line.is_string()) {  // entries are lines, some of them already ending in "\n"
          traceback += line.get_ref<const std::string&>();
          if (!traceback.empty() && traceback.back() != '\n') traceback += '\n';
        }
    append_output_text(ctx, out, body, nt::clean_terminal(traceback));
    out.text += body;
  } else {
    out.text += "Output (" + (type.empty() ? std::string("no output_type") : type) + "): [not shown]\n";
  }
}

CellOut render_cell(Context& ctx, const json& cell, std::uint64_t index) {
  CellOut out;
  const std::string marker = "\u2500\u2500 Cell " + n2s(index) + " \u00B7 ";
  if (!cell.is_object()) {
    out.text = marker + "unknown \u2500\u2500\n[This cell is not a JSON object.]\n";
    return out;
  }
  std::string type = string_member(cell, "cell_type");
  if (type.empty()) type = "unknown";
  std::string source = nt::scrub_data_uris(joined(member(cell, "source")));
  if (!source.empty() && source.back() != '\n') source += '\n';
  if (type == "code") {
    const json* count = member(cell, "execution_count");
    const std::string n = count != nullptr && count->is_number_integer() ? count->dump() : " ";
    out.text = marker + "code \u00B7 [" + n + "] \u2500\u2500\n";
    const std::string own = string_member(cell, "language");  // nbformat 3 cells name theirs
    const std::string fence = nt::fence_for(source);
    out.text += fence + (own.empty() ? ctx.language : fence_language(own)) + "\n" + source + fence + "\n";
  } else if (type == "markdown") {
    out.text = marker + "markdown \u2500\u2500\n" + (source.empty() ? std::string("(empty)\n") : source);
  } else {
    const std::string fence = nt::fence_for(source);
    out.text = marker + type + " \u2500\u2500\n" + fence + "\n" + source + fence + "\n";
  }
  if (const json* attachments = member(cell, "attachments"); attachments != nullptr && attachments->is_object()) {
    for (const auto& [name, bundle] : attachments->items()) {
      const std::string label = "Image attachment " + name + " of cell " + n2s(index);
      bool found = false;
      for (std::string_view t : kImageTypes) {
        if (const json* v = member(bundle, std::string(t).c_str())) {
          std::string line;
          add_image(ctx, out, label, t, *v, line);
          out.text += line + "\n";
          found = true;
          break;
        }
      }
      if (!found) out.text += "[Attachment " + name + ": " + keys_of(bundle) + ", not shown]\n";
      if (out.cancelled) return out;
    }
  }
  if (type == "code") {
    std::size_t image_k = 0;
    if (const json* outputs = member(cell, "outputs"); outputs != nullptr && outputs->is_array()) {
      for (const auto& o : *outputs) {
        render_output(ctx, out, index, image_k, o);
        if (out.cancelled || ctx.cancel.cancelled()) {
          out.cancelled = true;
          return out;
        }
      }
    }
  }
  return out;
}

// The first cell of an answer, cut in the middle to about `budget` bytes.
std::string cut_cell(std::string_view text, std::size_t budget, std::uint64_t index, std::size_t cap) {
  const nt::Cut cut = nt::middle_cut(text, budget * 2 / 3, text.size() - std::min(text.size(), budget / 3));
  std::string out(text.substr(0, cut.head_end));
  if (!out.empty() && out.back() != '\n') out += '\n';
  out += "[\u2026 " + n2s(utf8::count_chars(text.substr(cut.head_end, cut.tail_begin - cut.head_end))) +
         " characters of cell " + n2s(index) + " omitted to fit the output cap of " + n2s(cap) +
         " bytes; read the raw JSON with file_type=\"text\" to see them \u2026]\n";
  out.append(text.substr(cut.tail_begin));
  return out;
}

ReadOutcome failure(std::string message, const json& meta) {
  ReadOutcome o = ReadOutcome::error(std::move(message));
  o.meta = meta;
  return o;
}

}  // namespace

ReadOutcome read_notebook(const OpenedFile& file, const NotebookOptions& options,
                          const CancelToken& cancel) {
  const std::string path = safe(file.path.string());
  const auto size = static_cast<std::uint64_t>(file.st.st_size);
  json meta = {{"path", path}, {"size", size}};
  const std::string as_text = " Call read with file_type=\"text\" (and offset/limit) to read the raw JSON.";
  if (size > options.max_file_bytes)
    return failure(path + " is " + human_size(size) + " (" + n2s(size) + " bytes), over the " +
                       human_size(options.max_file_bytes) +
                       " limit for notebooks, so it was not parsed." + as_text, meta);
  if (size == 0) return failure(path + " is empty (0 bytes), not a notebook.", meta);
  auto bytes = file_io::read_whole(file.fd.get(), size, options.max_file_bytes);
  if (!bytes)
    return failure(errno == EFBIG ? path + " grew past the " + human_size(options.max_file_bytes) +
                                        " limit for notebooks while being read, so it was not parsed." + as_text
                                  : "Cannot read " + path + ": " + safe(std::strerror(errno)) + ".",
                   meta);
  if (cancel.cancelled()) return ReadOutcome::stopped();
  const bool repaired = !utf8::is_valid(*bytes);
  if (repaired) *bytes = safe(*bytes);
  const std::string invalid = path + " is not a valid notebook: ";
  if (nesting_depth(*bytes, kMaxDepth) > kMaxDepth)
    return failure(invalid + "its JSON is nested more than " + n2s(kMaxDepth) + " levels deep." + as_text, meta);
  json doc = json::parse(*bytes, nullptr, false);
  if (doc.is_discarded()) return failure(invalid + "it is not valid JSON" + json_error(*bytes) + "." + as_text, meta);
  bytes.reset();
  if (cancel.cancelled()) return ReadOutcome::stopped();
  if (!doc.is_object()) return failure(invalid + "its top level is not a JSON object." + as_text, meta);

  const json* major_v = member(doc, "nbformat");
  const json* minor_v = member(doc, "nbformat_minor");
  const bool has_major = major_v != nullptr && major_v->is_number_integer();
  const std::int64_t major = has_major ? major_v->get<std::int64_t>() : 0;
  const std::int64_t minor = minor_v != nullptr && minor_v->is_number_integer() ? minor_v->get<std::int64_t>() : 0;
  if (has_major && major < 3)
    return failure(invalid + "nbformat " + std::to_string(major) + " is not supported (only 3 and 4 are)." + as_text, meta);
  // nbformat 3 keeps its cells in worksheets; a notebook that says 3 but has "cells" is read as 4.
  const json* sheets = member(doc, "worksheets");
  if (sheets != nullptr && (major == 3 || member(doc, "cells") == nullptr)) {
    if (!sheets->is_array()) return failure(invalid + "'worksheets' is not an array." + as_text, meta);
    upgrade_v3(doc);
  } else if (major == 3 && member(doc, "cells") == nullptr) {
    return failure(invalid + "'worksheets' is missing (nbformat 3)." + as_text, meta);
  }
  const json* cells_v = member(doc, "cells");
  if (cells_v == nullptr) return failure(invalid + "'cells' is missing." + as_text, meta);
  if (!cells_v->is_array()) return failure(invalid + "'cells' is not an array." + as_text, meta);
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
  for (std::size_t i = 0; language.empty() && i < cells.size(); ++i)  // nbformat 3: per cell
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
    o.blocks.emplace_back(TextBlock{safe(header + "\n[The notebook has no cells.]")});
    return o;
  }
  if (start > n)
    return failure("Offset " + n2s(start) + " is past the end of " + path +
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
    CellOut c = render_cell(ctx, cells[static_cast<std::size_t>(i - 1)], i);
    if (c.cancelled || cancel.cancelled()) return ReadOutcome::stopped();
    const std::size_t used = sent_text + current.size() + (current.empty() ? 0 : 1);
    if (used + c.text.size() + kFooterReserve > cap) {
      if (end != 0) {
        capped = true;
        break;
      }
      const std::size_t room = cap > used + kFooterReserve ? cap - used - kFooterReserve : 0;
      if (c.text.size() > std::max(room, kMinCellBudget)) {
        c.text = cut_cell(c.text, std::max(room, kMinCellBudget), i, cap);
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
  const std::string next = "To read more, call read again with offset=" + n2s(end + 1) + ".";
  std::string footer = capped ? "[Cells " + range + " shown. " + next + "]"
                       : end < n ? "[Cells " + range + ". " + next + "]"
                                 : "[Cells " + range + ". End of notebook.]";
  if (unsent > 0) {
    footer += "\n[" + n2s(unsent) + (unsent == 1 ? " image output was" : " image outputs were") +
              " not sent: at most " + n2s(options.max_images) + " images per answer.";
    if (first_unsent > start)
      footer += " To see " + std::string(unsent == 1 ? "it" : "them") + ", call read again with offset=" +
                n2s(first_unsent) + ".";
    footer += "]";
  }
  if (repaired) footer += "\n[Invalid UTF-8 bytes in the notebook are shown as U+FFFD.]";
  if (!current.empty()) current += '\n';
  current += footer;
  o.blocks.emplace_back(TextBlock{std::move(current)});
  for (auto& b : o.blocks)
    if (auto* t = std::get_if<TextBlock>(&b); t != nullptr && !utf8::is_valid(t->text)) t->text = safe(t->text);

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
