// read_doc: parse_doc in a child process (child_process.hpp). libwv crashes (SIGSEGV) on some
// damaged files, may loop on others, and keeps its state in globals. The child sends the
// Document back as JSON.
#include "doc/doc_document.hpp"

#if !defined(_WIN32)
#include "child_process.hpp"
#include "doc/wv_api.hpp"

#include <nlohmann/json.hpp>

#include <chrono>

namespace mcpread::readers::doc {

namespace {

constexpr std::size_t kMaxMessageBytes = 4 * kMaxTextBytes;  // the JSON of the most text kept

nlohmann::json to_json(const DocDocument& d) {
  nlohmann::json blocks = nlohmann::json::array();
  for (const office::DocBlock& b : d.doc.blocks)
    blocks.push_back({{"type", static_cast<int>(b.type)}, {"level", b.level}, {"ordered", b.ordered},
                      {"number", b.number}, {"list", b.list}, {"text", b.text}, {"rows", b.rows},
                      {"notes", b.notes}});
  nlohmann::json notes = nlohmann::json::array();
  for (const office::Note& n : d.doc.notes) notes.push_back({n.label, n.text});
  return {{"blocks", std::move(blocks)}, {"notes", std::move(notes)}, {"comments", d.doc.comments},
          {"images", d.doc.images},       {"tables", d.doc.tables},   {"pictures", d.pictures},
          {"text_cut", d.text_cut},       {"version", d.version}};
}

void from_json(const nlohmann::json& j, DocDocument* d) {
  for (const auto& b : j.at("blocks")) {
    office::DocBlock block;
    block.type = static_cast<office::DocBlock::Type>(b.at("type").get<int>());
    block.level = b.at("level").get<int>();
    block.ordered = b.at("ordered").get<bool>();
    block.number = b.at("number").get<std::size_t>();
    block.list = b.at("list").get<std::string>();
    block.text = b.at("text").get<std::string>();
    block.rows = b.at("rows").get<std::vector<std::vector<std::string>>>();
    block.notes = b.at("notes").get<std::vector<std::size_t>>();
    d->doc.blocks.push_back(std::move(block));
  }
  for (const auto& n : j.at("notes")) d->doc.notes.push_back({n.at(0).get<std::string>(), n.at(1).get<std::string>()});
  d->doc.comments = j.at("comments").get<std::size_t>();
  d->doc.images = j.at("images").get<std::size_t>();
  d->doc.tables = j.at("tables").get<std::size_t>();
  d->pictures = j.at("pictures").get<std::size_t>();
  d->text_cut = j.at("text_cut").get<bool>();
  d->version = j.at("version").get<std::string>();
}

}  // namespace

bool read_doc(std::string_view bytes, DocDocument* out, std::string* error, const CancelToken& cancel) {
  if (!bytes.starts_with("\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1")) return parse_doc(bytes, out, error, cancel);
  if (wv_api(error) == nullptr) return false;  // loaded here, once, so that every child has it
  child_process::Limits limits;
  limits.cpu_seconds = kParseSeconds;
  limits.wall = std::chrono::seconds(kParseSeconds);
  limits.extra_memory = kParseMemoryBytes;
  limits.max_message = kMaxMessageBytes;
  const child_process::Outcome child = child_process::run(
      [bytes] {
        nlohmann::json answer;
        DocDocument parsed;
        std::string why;
        if (parse_doc(bytes, &parsed, &why, CancelToken{})) answer = {{"document", to_json(parsed)}};
        else answer = {{"error", why}};
        return answer.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      },
      limits, cancel);
  constexpr std::string_view kCrashAdvice =
      ": the document is damaged or uses what libwv cannot read; open it in Word or LibreOffice and save it as DOCX";
  if (child.ending != child_process::Ending::sent)
    return *error = child.refusal("libwv", "parsing it", limits, kCrashAdvice), false;
  const std::string malformed = "libwv's parse ended with a malformed answer" + std::string(kCrashAdvice);
  const nlohmann::json parsed = nlohmann::json::parse(child.message, nullptr, false);
  if (parsed.is_discarded() || !parsed.is_object()) return *error = malformed, false;
  if (const auto said = parsed.find("error"); said != parsed.end())
    return *error = said->is_string() ? said->get<std::string>() : malformed, false;
  try {
    from_json(parsed.at("document"), out);
  } catch (const nlohmann::json::exception&) {
    return *error = malformed, false;
  }
  return true;
}

}  // namespace mcpread::readers::doc
#endif
