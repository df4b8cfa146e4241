#include "read_tool.hpp"

#include <cmath>
#include <optional>

namespace mcpread::server {
namespace {

using nlohmann::json;

std::string read_description(const Config& config) {
  const auto& t = config.limits.text;
  const auto& i = config.limits.image;
  return "Read a file or list a directory on this machine, returned the way a model can use it.\n\n"
         "- Text files, in any charset (decoded to UTF-8): lines numbered like `cat -n` (line "
         "number, tab, line). Up to " + std::to_string(t.limit) +
         " lines from the start unless `offset` (1-based line) and `limit` (number of lines) say "
         "otherwise. Lines over " + std::to_string(t.max_line_chars) +
         " characters are cut. An answer over " + std::to_string(t.max_output_bytes / 1024) +
         " KB is truncated, and a closing note gives the `offset` to continue from.\n"
         "- Images: PNG, JPEG, GIF and WebP within the limits are sent unchanged; larger ones are "
         "downscaled to at most " + std::to_string(i.max_edge) + " px on the long side and " +
         std::to_string(i.max_base64_bytes / (1024 * 1024)) + " MB, and BMP, TIFF, HEIC/HEIF, "
         "AVIF, JPEG XL, ICO and SVG are converted. A text block first gives the original and the "
         "sent size, and the factor that maps coordinates in the sent image to the original.\n"
         "- PDFs: `pages` selects pages (\"3\", \"1-5\", \"2,4,7-9\", \"10-\"), at most " +
         std::to_string(config.limits.pdf_max_pages) +
         " per call; documents up to that length are read whole. The answer holds each page's "
         "text under a page marker and a PDF of just those pages; `file_type` \"text\" gives the "
         "text only, \"image\" renders the pages as images (for scans and figures).\n"
         "- Jupyter notebooks: every cell with its source and outputs, image outputs as images; "
         "`offset`/`limit` count cells. `file_type` \"text\" gives the raw JSON.\n"
         "- Audio (WAV, MP3, OGG, FLAC, M4A/AAC): sent as audio content.\n"
         "- Directories: the sorted entries, directories marked with `/`.\n"
         "- Other binary files are refused with their detected type.\n\n"
         "Paths are absolute, or relative to the first allowed root; only files inside the allowed "
         "roots can be read. Set `encoding` when a text file's charset is detected wrongly, and "
         "`file_type` to force how a file is read.";
}

json read_input_schema() {
  return json::parse(R"({
    "type": "object",
    "properties": {
      "file_path": {"type": "string",
        "description": "Absolute path of the file or directory to read, or a path relative to the first allowed root."},
      "offset": {"type": "integer", "minimum": 1,
        "description": "Line to start from, 1-based (default 1); for notebooks, the first cell."},
      "limit": {"type": "integer", "minimum": 1,
        "description": "Number of lines to return (default 2000); for notebooks, of cells."},
      "pages": {"type": "string",
        "description": "PDF pages to read, e.g. \"3\", \"1-5\", \"2,4,7-9\" or \"10-\"."},
      "file_type": {"type": "string", "enum": ["auto", "text", "image", "pdf", "notebook", "audio"],
        "default": "auto",
        "description": "How to read the file; \"auto\" decides from its name and content. \"text\" reads any file as text."},
      "encoding": {"type": "string",
        "description": "Charset of a text file, e.g. \"utf-8\", \"windows-1252\", \"shift_jis\", \"gbk\", \"utf-16le\". Detected when absent."}
    },
    "required": ["file_path"],
    "additionalProperties": false
  })");
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
  protocol::ToolDefinition image{
      "read_image", "Read file (compatibility name)",
      "The `read` tool under the name older clients call: same arguments, same results.",
      read_input_schema(), std::nullopt, annotations};
  if (config.structured_content) read.output_schema = image.output_schema = output_schema();
  return {std::move(read), std::move(image)};
}

std::variant<readers::ReadRequest, std::string> parse_read_arguments(const json& args) {
  readers::ReadRequest r;
  static const char* const accepted = "file_path, offset, limit, pages, file_type, encoding";
  for (const auto& [key, value] : args.items()) {
    if (key != "file_path" && key != "path" && key != "offset" && key != "limit" &&
        key != "pages" && key != "file_type" && key != "encoding")
      return "Unknown argument \"" + key + "\". The read tool accepts: " + accepted + ".";
  }
  const json* path = args.contains("file_path") ? &args["file_path"]
                     : args.contains("path")    ? &args["path"]
                                                : nullptr;
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
      if (!t.is_string() || !readers::parse_file_kind(name, &kind))
        return "The \"file_type\" argument must be one of auto, text, image, pdf, notebook, audio; "
               "got \"" + name + "\".";
      r.forced_kind = kind;
    }
  }
  if (args.contains("encoding") && !args["encoding"].is_null()) {
    if (!args["encoding"].is_string())
      return std::string("The \"encoding\" argument must be a charset name such as \"windows-1252\".");
    r.encoding = args["encoding"].get<std::string>();
  }
  return r;
}

}  // namespace mcpread::server
