#include "read_tool.hpp"

#include "hint_wording.hpp"

#include "mcpread/readers/registry.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

namespace mcpread::server {
namespace {

using nlohmann::json;

// The file_type values: auto, then each selectable reader's kind in registration order.
std::vector<std::string> file_types() {
  std::vector<std::string> out{"auto"};
  for (const auto& r : readers::reader_registry().readers())
    if (r.selectable) out.emplace_back(r.kind.name());
  return out;
}

// Kept short: every conversation of every host carries the tool list in its context. Each
// reader gives its few words once; readers that give the same words share a line ("- docx,
// odt: ...").
std::string read_description(const Config& config) {
  std::vector<std::pair<std::string, std::string>> lines;  // kinds, words
  for (const auto& r : readers::reader_registry().readers()) {
    if (r.describe == nullptr) continue;
    std::string words = r.describe(config.limits);
    if (words.empty()) continue;
    const auto same = std::find_if(lines.begin(), lines.end(), [&](const auto& l) { return l.second == words; });
    if (same != lines.end()) same->first += ", " + std::string(r.kind.name());
    else lines.emplace_back(std::string(r.kind.name()), std::move(words));
  }
  std::string d = "Read a file or list a directory in a form a model can use.\n";
  for (const auto& [kinds, words] : lines) d += "- " + kinds + ": " + words + "\n";
  return d +
         "- directory: sorted entries. Other binaries are refused with their type.\n"
         "`file_type` forces a reading: \"text\" (the source, or OCR of an image), \"json\" "
         "(pretty-printed), \"image\" (PDF pages rendered). Paths: absolute or relative to the first "
         "allowed root.";
}

// What `offset` counts, said once for every reader: "a line, or the cell, paragraph, row or entry
// an answer counts in", the units in the order readers register them. The kinds are not listed:
// each answer names what it counts, and the tool list, which every conversation carries, stays
// the same size as readers of those units are added.
std::string offset_description() {
  std::vector<std::string> units;
  const auto add = [&](std::string_view unit) {
    if (std::find(units.begin(), units.end(), unit) == units.end()) units.emplace_back(unit);
  };
  for (const auto& r : readers::reader_registry().readers())
    if (!r.counts.empty() && r.counts != "entry") add(r.counts);
  add("entry");  // archives' members, and a directory's listing, which no reader makes
  std::string d = "Where to start, 1-based: a line, or the ";
  for (std::size_t i = 0; i < units.size(); ++i)
    d += (i == 0 ? "" : i + 1 == units.size() ? " or " : ", ") + units[i];
  return d + " an answer counts in.";
}

json read_input_schema() {
  json schema = json::parse(R"({
    "type": "object",
    "properties": {
      "file_path": {"type": "string", "description": "The file or directory."},
      "offset": {"type": "integer", "minimum": 1},
      "limit": {"type": "integer", "minimum": 1, "description": "How many, counted as `offset` is."},
      "column": {"type": "integer", "minimum": 1, "description": "First character of each line, 1-based."},
      "pages": {"type": "string", "description": "PDF pages, slides, sheets (number or name) or EPUB chapters, e.g. \"1-5\"."},
      "file_type": {"type": "string", "default": "auto"},
      "encoding": {"type": "string", "description": "Charset, e.g. \"windows-1252\", \"shift_jis\"."},
      "ocr_lang": {"type": "string", "description": "OCR languages, e.g. \"eng+deu\"."}
    },
    "required": ["file_path"],
    "additionalProperties": false
  })");
  schema["properties"]["file_type"]["enum"] = file_types();
  schema["properties"]["offset"]["description"] = offset_description();
  return schema;
}

json output_schema() {
  return json::parse(R"({
    "type": "object",
    "properties": {
      "path": {"type": "string"}, "mime": {"type": "string"}, "size": {"type": "integer"},
      "mtime": {"type": "string"}, "charset": {"type": "string"},
      "total_lines": {"type": "integer"}, "start_line": {"type": "integer"},
      "end_line": {"type": "integer"}, "next_offset": {"type": "integer"},
      "truncated": {"type": "boolean"}
    }
  })");
}

// Whole numbers arrive as integers, as integral floats, or as numeric strings from some models.
std::optional<long long> as_integer(const json& v) {
  if (v.is_number_integer()) return v.get<long long>();
  if (v.is_number_float()) {
    const double d = v.get<double>();
    if (std::isfinite(d) && std::floor(d) == d && std::fabs(d) < 9e15) return static_cast<long long>(d);
    return std::nullopt;
  }
  if (v.is_string()) {
    const auto& s = v.get_ref<const std::string&>();
    if (s.empty() || s.size() > 18) return std::nullopt;
    std::size_t used = 0;
    try {
      const long long n = std::stoll(s, &used);
      if (used == s.size()) return n;
    } catch (const std::exception&) {
    }
  }
  return std::nullopt;
}

}  // namespace

std::vector<protocol::ToolDefinition> read_tool_definitions(const Config& config) {
  const json annotations{{"readOnlyHint", true},
                         {"destructiveHint", false},
                         {"idempotentHint", true},
                         {"openWorldHint", false}};
  protocol::ToolDefinition read{"read", "Read file", read_description(config), read_input_schema(),
                                std::nullopt, annotations};
  // The name older clients call, in one line; its schema names only the argument it needs
  // (not a second copy of read's: the arguments read takes are still taken).
  protocol::ToolDefinition image{
      "read_image", "Read file", "The `read` tool under its older name: same arguments, same results.",
      json{{"type", "object"},
           {"properties", {{"file_path", {{"type", "string"}}}}},
           {"required", json::array({"file_path"})}},
      std::nullopt, annotations};
  if (config.structured_content) read.output_schema = image.output_schema = output_schema();
  // A long read (a PDF rendered page by page, a big conversion) may become a task.
  read.task_support = image.task_support = protocol::TaskSupport::optional;
  return {std::move(read), std::move(image)};
}

std::variant<readers::ReadRequest, std::string> parse_read_arguments(const json& args) {
  readers::ReadRequest r;
  r.wording = hint_wording;  // the readers' hints name this tool's arguments
  static const char* const accepted = "file_path, offset, limit, column, pages, file_type, encoding, ocr_lang";
  for (const auto& [key, value] : args.items()) {
    // `path` is not an alias: the input schema does not list it, so a client that checks
    // arguments against the schema would refuse what the server took.
    if (key == "path")
      return std::string("Unknown argument \"path\": the read tool names the file with \"file_path\". "
                         "Call read with file_path instead.");
    if (key != "file_path" && key != "offset" && key != "limit" && key != "column" && key != "pages" &&
        key != "file_type" && key != "encoding" && key != "ocr_lang")
      return "Unknown argument \"" + key + "\". The read tool accepts: " + accepted + ".";
  }
  const json* path = args.contains("file_path") ? &args["file_path"] : nullptr;
  if (path == nullptr || !path->is_string() || path->get_ref<const std::string&>().empty())
    return std::string("The \"file_path\" argument is required: the absolute path of the file to "
                       "read (a non-empty string).");
  r.file_path = path->get<std::string>();

  auto whole = [&](const char* name, long long min, std::optional<std::uint64_t>* out) -> std::string {
    if (!args.contains(name) || args[name].is_null()) return {};
    const auto n = as_integer(args[name]);
    if (!n || *n < min)
      return std::string("The \"") + name + "\" argument must be a whole number of at least " +
             std::to_string(min) + ", got " + args[name].dump() + ".";
    *out = static_cast<std::uint64_t>(*n);
    return {};
  };
  // offset 0 is read as "from the start", as many callers mean it.
  if (auto e = whole("offset", 0, &r.offset); !e.empty()) return e;
  if (r.offset && *r.offset == 0) r.offset = 1;
  if (auto e = whole("limit", 1, &r.limit); !e.empty()) return e;
  if (auto e = whole("column", 1, &r.column); !e.empty()) return e;

  if (args.contains("pages") && !args["pages"].is_null()) {
    const auto& p = args["pages"];
    if (p.is_string()) {
      r.pages = p.get<std::string>();
    } else if (p.is_number_integer()) {
      r.pages = std::to_string(p.get<long long>());
    } else {
      return "The \"pages\" argument must be a string such as \"3\", \"1-5\" or \"2,4,7-9\".";
    }
  }
  if (args.contains("file_type") && !args["file_type"].is_null()) {
    const auto& t = args["file_type"];
    readers::FileKind kind{};
    const std::string name = t.is_string() ? t.get<std::string>() : t.dump();
    if (name != "auto") {
      if (!t.is_string() || !readers::parse_file_kind(name, &kind)) {
        std::string all;
        for (const auto& type : file_types()) all += (all.empty() ? "" : ", ") + type;
        return "The \"file_type\" argument must be one of " + all + "; got \"" + name + "\".";
      }
      r.forced_kind = kind;
    }
  }
  if (args.contains("encoding") && !args["encoding"].is_null()) {
    if (!args["encoding"].is_string())
      return std::string("The \"encoding\" argument must be a charset name such as \"windows-1252\".");
    r.encoding = args["encoding"].get<std::string>();
  }
  if (args.contains("ocr_lang") && !args["ocr_lang"].is_null()) {
    if (!args["ocr_lang"].is_string())
      return std::string("The \"ocr_lang\" argument must be Tesseract language names such as \"eng\" or \"eng+deu\".");
    r.ocr_lang = args["ocr_lang"].get<std::string>();
  }
  return r;
}

}  // namespace mcpread::server
