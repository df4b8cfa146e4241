#include "notebook_cells.hpp"

#include "mcpread/common/ascii.hpp"
#include "mcpread/readers/base64.hpp"

#include "html/html_text.hpp"
#include "human_size.hpp"
#include "mcpread/readers/utf8.hpp"
#include "notebook_text.hpp"

#include <algorithm>
#include <array>
#include <cstring>

namespace mcpread::readers::notebook_cells {
namespace {

namespace nt = notebook_text;

constexpr std::array<std::string_view, 5> kImageTypes = {"image/png", "image/jpeg", "image/gif",
                                                         "image/webp", "image/svg+xml"};

std::string n2s(std::uint64_t v) { return std::to_string(v); }

std::string dims(unsigned w, unsigned h) { return n2s(w) + "\u00D7" + n2s(h); }

std::string format_name(const std::string& mime) {
  return mime == "image/png" ? "PNG" : mime == "image/jpeg" ? "JPEG" : mime == "image/gif" ? "GIF" : "WEBP";
}

std::string keys_of(const json& obj) {
  std::string out;
  if (obj.is_object())
    for (const auto& [k, v] : obj.items()) out += (out.empty() ? "" : ", ") + k;
  return out.empty() ? "no data" : out;
}

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
    auto decoded = base64_decode(bytes);
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
  line = head + utf8::sanitized(img.original_format) + " " + dims(img.original_width, img.original_height) + " px";
  if (!img.passed_through) line += ", sent as " + format_name(img.mime) + " " + dims(img.width, img.height) + " px";
  line += "]";
  out.images.push_back(ImageBlock{std::move(img.mime), std::move(img.data)});
  return true;
}

// Output text as sent: base64 payloads removed, cut to max_chars_per_output, ending in "\n".
void append_output_text(const Context& ctx, CellOut& out, std::string& body, std::string_view text) {
  if (text.empty()) {
    body += "(empty)\n";
    return;
  }
  bool trimmed = false;
  body += nt::trim_output(nt::scrub_data_uris(text), ctx.options.max_chars_per_output, &trimmed);
  if (trimmed) ++out.trimmed;
  if (!body.empty() && body.back() != '\n') body += '\n';
}

// A text/plain that only names an object, "<pandas.io.formats.style.Styler at 0x7f…>" or
// "<IPython.core.display.HTML object>": what the object shows is in the bundle's other forms.
bool is_bare_repr(std::string_view s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.remove_suffix(1);
  while (!s.empty() && (s.front() == '\n' || s.front() == ' ')) s.remove_prefix(1);
  if (s.size() < 3 || s.front() != '<' || s.back() != '>' || s.find('\n') != std::string_view::npos) return false;
  const std::size_t at = s.rfind(" at 0x");
  if (at != std::string_view::npos && at + 7 < s.size() &&
      s.find_first_not_of("0123456789abcdefABCDEF", at + 6) == s.size() - 1)
    return true;
  return s.ends_with(" object>");
}

// The text form of a MIME bundle: markdown; then HTML holding a table, as a Markdown table; plain
// text unless it only names an object; HTML as text; LaTeX; JSON; the bare repr last. A pandas
// DataFrame's plain text is a fixed-width layout whose columns a model has to infer from spacing
// (and which pandas wraps into blocks of columns when the frame is wide); its HTML carries the
// same cells with explicit boundaries, header and index names, so the Markdown table made from it
// is read cell by cell, without guessing.
std::optional<std::string> text_representation(const json& data) {
  if (const json* v = member(data, "text/markdown")) return joined(v);
  const json* plain_v = member(data, "text/plain");
  const std::optional<std::string> plain =
      plain_v != nullptr ? std::optional(nt::clean_terminal(joined(plain_v))) : std::nullopt;
  const bool bare = plain && is_bare_repr(*plain);
  if (const json* v = member(data, "text/html")) {
    html_text::Text html = html_text::to_text(joined(v));
    if (!html.error.empty() && !plain) return "[HTML output not shown: " + html.error + ".]";
    if (!html.text.empty() && (html.tables > 0 || !plain || bare)) return std::move(html.text);
  }
  if (plain && !bare) return plain;
  if (const json* v = member(data, "text/latex")) return joined(v);
  if (const json* v = member(data, "application/json"))
    return v->is_string() ? v->get<std::string>() : v->dump(2, ' ', false, json::error_handler_t::replace);
  return plain;
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
    if (!traceback.empty()) append_output_text(ctx, out, body, nt::clean_terminal(traceback));
    out.text += body;
  } else {
    out.text += "Output (" + (type.empty() ? std::string("no output_type") : type) + "): [not shown]\n";
  }
}

// nbformat 2 and 3 outputs in nbformat 4 form, as nbformat's upgrade does them.
void upgrade_output_v3(json& o) {
  if (!o.is_object()) return;
  const std::string type = string_member(o, "output_type");
  if (type == "pyout") {
    o["output_type"] = "execute_result";
    if (json* p = member(o, "prompt_number")) o["execution_count"] = *p;
  } else if (type == "pyerr") {
    o["output_type"] = "error";
    // nbformat 2 names the exception "etype"; 3 and 4 call it "ename".
    if (member(o, "ename") == nullptr && member(o, "etype") != nullptr) o["ename"] = string_member(o, "etype");
  } else if (type == "stream" && member(o, "name") == nullptr) {
    const std::string stream = string_member(o, "stream");
    o["name"] = stream.empty() ? std::string("stdout") : stream;  // nbformat's default
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

}  // namespace

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

std::string fence_language(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (const char l = common::ascii_lower(c); (l >= 'a' && l <= 'z') || (c >= '0' && c <= '9') || std::strchr("+#._-", c) != nullptr)
      out += l;
  }
  return out;
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
    const std::string own = string_member(cell, "language");  // nbformat 2 and 3 cells name theirs
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

}  // namespace mcpread::readers::notebook_cells
