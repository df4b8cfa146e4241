#include "revenge/revenge_document.hpp"

#if defined(_WIN32)
namespace mcpread::readers::revenge {

bool read_revenge(std::string_view, RevengeDocument*, std::string* error, const CancelToken&) {
  *error = "the Windows build of mcp-read does not include librevenge's importers, which read them: open it in "
           "LibreOffice and save it as DOCX or ODT, or use mcp-read on Linux";
  return false;
}

bool from_plugin_json(std::string_view, RevengeDocument*) { return false; }

}  // namespace mcpread::readers::revenge
#else
#include "child_json.hpp"
#include "child_process.hpp"
#include "mcpread/readers/base64.hpp"
#include "revenge/revenge_api.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace mcpread::readers::revenge {

namespace {

std::string extension_of_mime(const std::string& mime) {
  const std::size_t slash = mime.find('/');
  const std::string sub = slash == std::string::npos ? "bin" : mime.substr(slash + 1);
  return sub == "jpeg" ? "jpg" : sub;
}

office::DocBlock::Type block_type(const std::string& name) {
  if (name == "heading") return office::DocBlock::Type::heading;
  if (name == "list_item") return office::DocBlock::Type::list_item;
  if (name == "table") return office::DocBlock::Type::table;
  return office::DocBlock::Type::paragraph;
}

void append_sink(void* ctx, const char* data, std::size_t size) { static_cast<std::string*>(ctx)->append(data, size); }

}  // namespace

std::vector<std::string> pictures_from_plugin(const nlohmann::json& images, std::vector<Picture>& out) {
  std::vector<std::string> names;
  for (const auto& image : images) {
    const std::string mime = image.at("mime").get<std::string>();
    auto bytes = base64_decode(image.at("base64").get<std::string>());
    names.push_back("image" + std::to_string(names.size() + 1) + "." + extension_of_mime(mime));
    if (bytes) out.push_back({names.back(), std::move(*bytes)});
  }
  return names;
}

bool from_plugin_json(std::string_view json, RevengeDocument* out) {
  const nlohmann::json j = nlohmann::json::parse(json, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return false;
  try {
    RevengeDocument d;
    d.format = j.at("format").get<std::string>();
    for (const auto& n : j.at("notes")) d.doc.notes.push_back({std::to_string(d.doc.notes.size() + 1), office::squeeze(n.get<std::string>())});
    const std::vector<std::string> names = pictures_from_plugin(j.at("images"), d.pictures);
    for (const auto& b : j.at("blocks")) {
      office::DocBlock block;
      block.type = block_type(b.at("type").get<std::string>());
      for (const auto& n : b.at("notes")) {
        const auto note = child_json::whole<std::size_t>(n);
        if (note < d.doc.notes.size()) block.notes.push_back(note);
      }
      for (const auto& i : b.at("images")) {
        const auto image = child_json::whole<std::size_t>(i);
        if (image < names.size()) block.images.push_back(names[image]);
      }
      if (block.type == office::DocBlock::Type::table) {
        for (const auto& row : b.at("rows")) {
          std::vector<std::string> cells;
          for (const auto& cell : row) cells.push_back(office::squeeze(cell.get<std::string>()));
          block.rows.push_back(std::move(cells));
        }
        office::add_block(d.doc, std::move(block));
        continue;
      }
      office::Inline paragraph{b.at("text").get<std::string>(), std::move(block.notes), std::move(block.images)};
      office::DocBlock made;
      if (!office::take_paragraph(paragraph, &made)) continue;
      made.type = block.type;
      made.level = child_json::whole(b.at("level"), 0);
      made.ordered = b.at("ordered").get<bool>();
      made.number = child_json::whole<std::size_t>(b.at("number"));
      made.list = b.at("list").get<std::string>();
      if (made.type == office::DocBlock::Type::heading) made.level = std::clamp(made.level, 1, 6);
      office::add_block(d.doc, std::move(made));
    }
    d.doc.comments = child_json::whole<std::size_t>(j.at("comments"));
    d.pictures_not_shown = child_json::whole<std::size_t>(j.at("pictures_not_shown"));
    d.text_cut = j.at("text_cut").get<bool>();
    *out = std::move(d);
    return true;
  } catch (const nlohmann::json::exception&) {
    return false;
  }
}

bool run_importer(std::string_view bytes, std::string* answer, std::string* error, const CancelToken& cancel,
                  mcpread_revenge_read_text_fn RevengeApi::*entry, std::string_view crash_advice) {
  const RevengeApi* api = revenge_api(error);  // loaded here, once, so that every child has it
  if (api == nullptr) return false;
  const mcpread_revenge_read_text_fn read = api->*entry;
  child_process::Limits limits;
  limits.cpu_seconds = kParseSeconds;
  limits.wall = std::chrono::seconds(kParseSeconds);
  limits.extra_memory = kParseMemoryBytes;
  limits.max_message = kMaxMessageBytes;
  const child_process::Outcome child = child_process::run(
      [bytes, read] {
        char why[512] = {};
        // The first byte says which: 'd' and the document's JSON, or 'e' and the refusal.
        std::string document = "d";
        if (read(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), append_sink, &document, why,
                 sizeof why) == 1)
          return document;
        return "e" + std::string(why[0] != '\0' ? why : "the importer failed without saying why");
      },
      limits, cancel);
  if (child.ending != child_process::Ending::sent)
    return *error = child.refusal("the importer", "parsing it", limits, crash_advice), false;
  if (child.message.starts_with("e")) {
    // The importers' words, quoted: bounded and free of control characters whatever they hold.
    *error = child_process::quotable_reason(std::string_view(child.message).substr(1));
    if (error->empty()) *error = "the importer failed without saying why";
    return false;
  }
  if (!child.message.starts_with("d"))
    return *error = "the importer's parse ended with a malformed answer" + std::string(crash_advice), false;
  *answer = child.message.substr(1);
  return true;
}

bool read_revenge(std::string_view bytes, RevengeDocument* out, std::string* error, const CancelToken& cancel) {
  std::string answer;
  if (!run_importer(bytes, &answer, error, cancel, &RevengeApi::read_text, kCrashAdvice)) return false;
  if (!from_plugin_json(answer, out))
    return *error = "the importer's parse ended with a malformed answer" + std::string(kCrashAdvice), false;
  return true;
}

}  // namespace mcpread::readers::revenge
#endif
